#include "codegen/cann_support.h"

namespace ptowb::codegen {

namespace {

// What Ascend's parser gives a plugin (Ascend/parser, parser/onnx/onnx_parser.cc ParseOpParam,
// parser/common/convert/message2operator.cc and pb2json.cc): op_src has ONE string attribute,
// "attribute", holding {"attribute": [AttributeProto as JSON, ...]} with proto3 presence — a
// zero or empty value is left out — where "type" is the AttributeType number, "f" is a string
// printed with %g, "s" is C-escaped bytes (protobuf CEscape), "ints"/"floats" are arrays.
// CANN ships no JSON library to plugins (the official sample carries its own copy of one), so
// this bounded reader is emitted instead.
constexpr const char* kPlugin = R"CPP(
namespace {
namespace ptowb_Rt {

struct JsonNode
{
    enum Kind { Null, Boolean, Number, String, Array, Object };
    Kind kind;
    std::string text;              // a number as written, an unescaped string, "true"/"false"
    std::vector<std::size_t> kids; // array items or object values, as indices into the document
    std::vector<std::string> keys; // object keys, beside kids
};

struct JsonError : std::runtime_error
{
    explicit JsonError(const std::string& what) : std::runtime_error(what) {}
};

// A JSON reader bounded in depth, so a hostile model cannot exhaust the stack.
class JsonDocument
{
public:
    void parse(const std::string& text)
    {
        m_text = text;
        m_at = 0;
        m_nodes.clear();
        value(0);
        space();
        if (m_at != m_text.size()) fail("trailing text");
    }
    const JsonNode& node(std::size_t k) const { return m_nodes[k]; }
    const JsonNode* member(const JsonNode& object, const char* key) const
    {
        if (object.kind != JsonNode::Object) return 0;
        for (std::size_t k = 0; k < object.keys.size(); ++k)
            if (object.keys[k] == key) return &m_nodes[object.kids[k]];
        return 0;
    }

private:
    void fail(const char* what) const { throw JsonError(std::string("bad JSON at byte ") + std::to_string(static_cast<unsigned long long>(m_at)) + ": " + what); }
    void space()
    {
        while (m_at < m_text.size() && (m_text[m_at] == ' ' || m_text[m_at] == '\n' || m_text[m_at] == '\r' || m_text[m_at] == '\t')) ++m_at;
    }
    bool take(char c)
    {
        space();
        if (m_at < m_text.size() && m_text[m_at] == c) {
            ++m_at;
            return true;
        }
        return false;
    }
    std::size_t add(JsonNode::Kind kind)
    {
        JsonNode n;
        n.kind = kind;
        m_nodes.push_back(n);
        return m_nodes.size() - 1;
    }
    std::size_t value(int depth)
    {
        if (depth > 32) fail("nested too deeply");
        space();
        if (m_at >= m_text.size()) fail("unexpected end");
        const char c = m_text[m_at];
        if (c == '{' || c == '[') return container(depth, c == '{');
        if (c == '"') {
            const std::size_t k = add(JsonNode::String);
            const std::string s = string();
            m_nodes[k].text = s;
            return k;
        }
        static const char* const kWords[] = {"true", "false", "null"};
        for (int w = 0; w < 3; ++w)
            if (m_text.compare(m_at, std::strlen(kWords[w]), kWords[w]) == 0) {
                m_at += std::strlen(kWords[w]);
                const std::size_t k = add(w == 2 ? JsonNode::Null : JsonNode::Boolean);
                m_nodes[k].text = kWords[w];
                return k;
            }
        const std::size_t begin = m_at;
        while (m_at < m_text.size() && std::strchr("+-0123456789.eE", m_text[m_at]) != 0) ++m_at;
        if (begin == m_at) fail("unexpected character");
        const std::size_t k = add(JsonNode::Number);
        m_nodes[k].text = m_text.substr(begin, m_at - begin);
        return k;
    }
    std::size_t container(int depth, bool object)
    {
        ++m_at;
        const std::size_t k = add(object ? JsonNode::Object : JsonNode::Array);
        if (take(object ? '}' : ']')) return k;
        do {
            if (object) {
                space();
                if (m_at >= m_text.size() || m_text[m_at] != '"') fail("expected a key");
                const std::string key = string();
                if (!take(':')) fail("expected ':'");
                m_nodes[k].keys.push_back(key);
            }
            const std::size_t item = value(depth + 1);
            m_nodes[k].kids.push_back(item);
        } while (take(','));
        if (!take(object ? '}' : ']')) fail("expected ',' or the end of the container");
        return k;
    }
    void utf8(unsigned long cp, std::string& out) const
    {
        if (cp < 0x80) {
            out += char(cp);
        } else if (cp < 0x800) {
            out += char(0xC0 | (cp >> 6));
            out += char(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += char(0xE0 | (cp >> 12));
            out += char(0x80 | ((cp >> 6) & 0x3F));
            out += char(0x80 | (cp & 0x3F));
        } else {
            out += char(0xF0 | (cp >> 18));
            out += char(0x80 | ((cp >> 12) & 0x3F));
            out += char(0x80 | ((cp >> 6) & 0x3F));
            out += char(0x80 | (cp & 0x3F));
        }
    }
    unsigned long hex4()
    {
        if (m_at + 4 > m_text.size()) fail("short \\u escape");
        unsigned long v = 0;
        for (int k = 0; k < 4; ++k) {
            const char c = m_text[m_at++];
            const char* digits = "0123456789abcdef";
            const char* at = std::strchr(digits, c >= 'A' && c <= 'F' ? c - 'A' + 'a' : c);
            if (c == 0 || at == 0) fail("bad \\u escape");
            v = v * 16 + static_cast<unsigned long>(at - digits);
        }
        return v;
    }
    std::string string()
    {
        ++m_at;
        std::string out;
        while (true) {
            if (m_at >= m_text.size()) fail("unterminated string");
            const char c = m_text[m_at++];
            if (c == '"') return out;
            if (c != '\\') {
                out += c;
                continue;
            }
            if (m_at >= m_text.size()) fail("unterminated escape");
            const char e = m_text[m_at++];
            const char* const from = "\"\\/bfnrt";
            const char* const to = "\"\\/\b\f\n\r\t";
            const char* at = std::strchr(from, e);
            if (e != 0 && at != 0 && e != 'u') {
                out += to[at - from];
                continue;
            }
            if (e != 'u') fail("bad escape");
            unsigned long cp = hex4();
            if (cp >= 0xD800 && cp < 0xDC00 && m_text.compare(m_at, 2, "\\u") == 0) {
                m_at += 2;
                const unsigned long low = hex4();
                if (low < 0xDC00 || low > 0xDFFF) fail("bad surrogate pair");
                cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            }
            utf8(cp, out);
        }
    }

    std::string m_text;
    std::size_t m_at;
    std::vector<JsonNode> m_nodes;
};

// protobuf's CUnescape, for the "s" field the parser C-escapes.
inline std::string cUnescape(const std::string& in)
{
    std::string out;
    for (std::size_t k = 0; k < in.size(); ++k) {
        if (in[k] != '\\' || k + 1 == in.size()) {
            out += in[k];
            continue;
        }
        const char e = in[++k];
        if (e >= '0' && e <= '7') {
            int v = 0;
            for (int n = 0; n < 3 && k < in.size() && in[k] >= '0' && in[k] <= '7'; ++n, ++k) v = v * 8 + (in[k] - '0');
            --k;
            out += char(v);
            continue;
        }
        if (e == 'x' && k + 1 < in.size() && std::isxdigit(static_cast<unsigned char>(in[k + 1]))) {
            int v = 0;
            while (k + 1 < in.size() && std::isxdigit(static_cast<unsigned char>(in[k + 1]))) {
                const char h = in[++k];
                v = v * 16 + (h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
            }
            out += char(v & 0xFF);
            continue;
        }
        const char* const from = "abfnrtv\\'\"?";
        const char* const to = "\a\b\f\n\r\t\v\\'\"?";
        const char* at = std::strchr(from, e);
        out += at != 0 && e != 0 ? to[at - from] : e;
    }
    return out;
}

// Numbers as the C locale writes them, whatever the process's locale.
inline bool parseInt(const std::string& text, std::int64_t& out)
{
    std::istringstream in(text);
    in.imbue(std::locale::classic());
    long long v = 0;
    in >> v;
    if (in.fail() || !in.eof()) return false;
    out = std::int64_t(v);
    return true;
}
inline bool parseReal(std::string text, double& out)
{
    for (std::size_t k = 0; k < text.size(); ++k)
        if (text[k] == ',') text[k] = '.'; // %g under a locale with a decimal comma
    if (text == "inf" || text == "-inf" || text == "nan" || text == "-nan") {
        out = text == "inf" ? std::numeric_limits<double>::infinity()
                            : text == "-inf" ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
        return true;
    }
    std::istringstream in(text);
    in.imbue(std::locale::classic());
    in >> out;
    return !in.fail() && in.eof();
}

enum Found { Absent, Present, Invalid };

// onnx.AttributeProto.AttributeType numbers.
enum OnnxType { kFloat = 1, kInt = 2, kString = 3, kFloats = 6, kInts = 7 };

class OnnxAttributes
{
public:
    // False (with the reason) when op_src carries text that is not the parser's JSON.
    bool load(const ge::Operator& opSrc, std::string& error)
    {
        ge::AscendString json;
        if (opSrc.GetAttr("attribute", json) != ge::GRAPH_SUCCESS || json.GetString() == 0) return true; // a node without attributes
        try {
            m_doc.parse(std::string(json.GetString(), json.GetLength()));
        } catch (const JsonError& e) {
            error = std::string("the parser's attribute JSON: ") + e.what();
            return false;
        }
        const JsonNode* list = m_doc.member(m_doc.node(0), "attribute");
        if (list == 0 || list->kind != JsonNode::Array) {
            error = "the parser's attribute JSON has no \"attribute\" list";
            return false;
        }
        m_list = list;
        return true;
    }
    Found getInt(const char* name, std::int64_t& out, std::string& error) const
    {
        const JsonNode* a = find(name, kInt, "INT", error);
        if (a == 0) return error.empty() ? Absent : Invalid;
        const JsonNode* v = m_doc.member(*a, "i");
        if (v == 0) out = 0;
        else if (v->kind != JsonNode::Number || !parseInt(v->text, out)) return bad(name, "an integer", error);
        return Present;
    }
    Found getBool(const char* name, bool& out, std::string& error) const
    {
        std::int64_t v = 0;
        const Found found = getInt(name, v, error);
        if (found == Present) out = v != 0;
        return found;
    }
    Found getFloat(const char* name, float& out, std::string& error) const
    {
        const JsonNode* a = find(name, kFloat, "FLOAT", error);
        if (a == 0) return error.empty() ? Absent : Invalid;
        const JsonNode* v = m_doc.member(*a, "f");
        double d = 0;
        if (v != 0 && ((v->kind != JsonNode::Number && v->kind != JsonNode::String) || !parseReal(v->text, d))) return bad(name, "a number", error);
        out = float(d);
        return Present;
    }
    Found getString(const char* name, std::string& out, std::string& error) const
    {
        const JsonNode* a = find(name, kString, "STRING", error);
        if (a == 0) return error.empty() ? Absent : Invalid;
        const JsonNode* v = m_doc.member(*a, "s");
        if (v != 0 && v->kind != JsonNode::String) return bad(name, "a string", error);
        out = v == 0 ? std::string() : cUnescape(v->text);
        return Present;
    }
    Found getInts(const char* name, std::vector<std::int64_t>& out, std::string& error) const
    {
        const JsonNode* a = find(name, kInts, "INTS", error);
        if (a == 0) return error.empty() ? Absent : Invalid;
        const JsonNode* v = m_doc.member(*a, "ints");
        out.clear();
        if (v != 0 && v->kind != JsonNode::Array) return bad(name, "a list of integers", error);
        for (std::size_t k = 0; v != 0 && k < v->kids.size(); ++k) {
            std::int64_t item = 0;
            const JsonNode& n = m_doc.node(v->kids[k]);
            if (n.kind != JsonNode::Number || !parseInt(n.text, item)) return bad(name, "a list of integers", error);
            out.push_back(item);
        }
        return Present;
    }
    Found getFloats(const char* name, std::vector<float>& out, std::string& error) const
    {
        const JsonNode* a = find(name, kFloats, "FLOATS", error);
        if (a == 0) return error.empty() ? Absent : Invalid;
        const JsonNode* v = m_doc.member(*a, "floats");
        out.clear();
        if (v != 0 && v->kind != JsonNode::Array) return bad(name, "a list of numbers", error);
        for (std::size_t k = 0; v != 0 && k < v->kids.size(); ++k) {
            double item = 0;
            const JsonNode& n = m_doc.node(v->kids[k]);
            if (n.kind != JsonNode::Number || !parseReal(n.text, item)) return bad(name, "a list of numbers", error);
            out.push_back(float(item));
        }
        return Present;
    }

private:
    // The attribute called `name`, or null: absent (error empty) or of another type (error set).
    const JsonNode* find(const char* name, long type, const char* typeName, std::string& error) const
    {
        error.clear();
        for (std::size_t k = 0; m_list != 0 && k < m_list->kids.size(); ++k) {
            const JsonNode& a = m_doc.node(m_list->kids[k]);
            const JsonNode* n = m_doc.member(a, "name");
            if (n == 0 || n->kind != JsonNode::String || n->text != name) continue;
            const JsonNode* t = m_doc.member(a, "type");
            std::int64_t got = -1;
            if (t == 0 || t->kind != JsonNode::Number || !parseInt(t->text, got) || got != type) {
                error = std::string("attribute '") + name + "' must be an ONNX " + typeName + " attribute (type " + std::to_string(type) +
                        "), the node has type " + (t == 0 ? std::string("none") : t->text);
                return 0;
            }
            return &a;
        }
        return 0;
    }
    static Found bad(const char* name, const char* what, std::string& error)
    {
        error = std::string("attribute '") + name + "' is not " + what;
        return Invalid;
    }

    JsonDocument m_doc;
    const JsonNode* m_list = 0;
};

inline domi::Status failed(const char* opType, const std::string& why)
{
    std::fprintf(stderr, "[ptowb] %s: %s\n", opType, why.c_str());
    return domi::FAILED;
}

} // namespace ptowb_Rt
} // namespace
)CPP";

} // namespace

std::string cannPluginSupport()
{
    return kPlugin;
}

} // namespace ptowb::codegen
