#pragma once

// Ops whose every string field holds random hostile text, for the escaping property tests: the
// op.json of one, its reference, and the text and identifier generators.
#include <QRandomGenerator>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

namespace ptowb::testing {

// One op: x -> y with one parameter of each kind, and the given texts in every string field.
struct Texts
{
    std::string doc, inputDoc, paramDoc, strDefault, message, ruleString;
};

inline std::string opJson(const std::string& ns, const std::string& name, const std::string& input,
                          const std::string& param, const Texts& t)
{
    // A rule string literal: the rule lexer takes \\ and \" (and \n, \t) inside "...".
    std::string quoted;
    for (char c : t.ruleString) {
        if (c == '\\' || c == '"') quoted += '\\';
        if (c == '\n')
            quoted += "\\n";
        else if (c == '\t')
            quoted += "\\t";
        else
            quoted += c;
    }
    const nlohmann::ordered_json op{
        {"format", "ptowb-op/1"},
        {"name", name},
        {"namespace", ns},
        {"op_type", "QOp"},
        {"version", "1.0.0"},
        {"doc", t.doc},
        {"kernel", {{"file", "kernel.py"}, {"function", name + "_kernel"}}},
        {"reference", {{"file", "reference.py"}, {"function", name + "_reference"}}},
        {"inputs", {{{"name", input}, {"dtypes", {"float32"}}, {"doc", t.inputDoc}}}},
        {"parameters",
         {{{"name", param}, {"type", "str"}, {"default", t.strDefault}, {"doc", t.paramDoc}},
          {{"name", param + "_n"}, {"type", "int"}, {"default", 1}, {"doc", t.paramDoc}}}},
        {"outputs",
         {{{"name", "y" + name}, {"shape", input + ".shape"}, {"dtype", input + ".dtype"}}}},
        {"constraints",
         {{{"check", param + " != \"" + quoted + "\" or " + param + "_n >= 0"},
           {"message", t.message}}}},
    };
    return op.dump(2);
}

inline std::string referenceFor(const std::string& name, const std::string& input,
                                const std::string& body = "    return " + std::string("x") +
                                                          " + 1.0\n")
{
    return "import torch\nfrom torch import Tensor\n\n\ndef " + name + "_reference(" + input +
           ": Tensor) -> Tensor:\n" + body;
}

// Pieces of text that close or open something in one of the target languages.
inline const std::vector<std::string> kFragments{
    "\"\"\"",
    "'''",
    "'",
    "\"",
    "\\",
    "\\\\",
    "\n",
    "\r\n",
    "\r",
    "===",
    "~~~",
    "   # ",
    "\t",
    "*/",
    "/*",
    "//",
    "#",
    "@PACKAGE@",
    "@DOC_LIT@",
    "${HOME}",
    "$(id)",
    "?\?=",
    "?\?/",
    "é",
    "café",
    "✓",
    "😀",
    "\u2028",
    "\u0085",
    "\u202e",
    "\x01",
    "\x1b[2J",
    "\x7f",
    "{",
    "}",
    "%s",
    "%(x)s",
    "{0}",
    "\"\"\"+str(__import__(\"os\").system(\"touch pwned\"))+\"\"\"",
    "');__import__('os').system('id');('",
    "\\N{BULLET}",
    "\\x41",
    "\\u0041",
    "b'",
    "f\"{x}\"",
    ")",
    "(",
    ";",
    "\\\n",
    "```",
    "<script>",
    "]]>",
    "-->",
    "\\0",
    "\\'",
    "\\\""};

inline std::string hostile(QRandomGenerator& random)
{
    std::string s;
    const int parts = 1 + int(random.bounded(8));
    for (int k = 0; k < parts; ++k)
        s += kFragments[random.bounded(quint32(kFragments.size()))];
    return s;
}

// A random identifier; 'q' starts no keyword of Python or C++, nor a dtype or builtin name, and
// the prefixes keep the names of one op apart.
inline std::string identifier(QRandomGenerator& random, std::set<std::string>& used,
                              const std::string& prefix)
{
    static const char kChars[] = "abcdefghijklmnopqrstuvwxyz0123456789_";
    while (true) {
        std::string name = prefix;
        const int length = int(random.bounded(8));
        for (int k = 0; k < length; ++k)
            name += kChars[random.bounded(quint32(sizeof kChars - 1))];
        if (used.insert(name).second) return name;
    }
}

// Parses every module (never imports it): ASCII only, compiles to bytecode, every expected text
// is a string constant, and the tree with string constants blanked equals its twin's.
constexpr const char* kCheckScript = R"PY(import ast, json, sys

def skeleton(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            node.value = ''
    return ast.dump(tree)

failures = 0
for case in json.load(open(sys.argv[1], encoding='utf-8')):
    try:
        source = open(case['module'], encoding='ascii').read()
        compile(source, case['module'], 'exec')
        tree = ast.parse(source)
        constants = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
        for text in case['texts']:
            assert text in constants, 'not a constant: %r' % text
        twin = ast.parse(open(case['twin'], encoding='ascii').read())
        assert skeleton(tree) == skeleton(twin), 'the syntax tree depends on the text'
    except Exception as error:
        failures += 1
        print('FAIL', case['module'], type(error).__name__, error)
print('checked', len(json.load(open(sys.argv[1]))), 'failures', failures)
sys.exit(1 if failures else 0)
)PY";

// Imports one generated module for real, calls the op, and reports what the schema says.
constexpr const char* kImportScript = R"PY(import os, sys, torch
sys.path.insert(0, sys.argv[1])
module = __import__(sys.argv[2])
y = module.op(torch.ones(3))
print('y', y.tolist())
schema = torch._C.parse_schema(module.SCHEMA)
print('default', [a.default_value for a in schema.arguments if a.name == sys.argv[3]][0].encode('utf-8').hex())
print('pwned', os.path.exists(sys.argv[4]))
)PY";

// One random op: its names, hostile texts, and the texts of its plain twin.
struct HostileOp
{
    std::string ns, name, input, param;
    Texts texts;
    Texts plain{"plain 1", "plain 2", "plain 3", "plain 4", "plain 5", "plain 6"};
    std::string reference; // returns input + 1

    std::string json() const { return opJson(ns, name, input, param, texts); }
    std::string twinJson() const { return opJson(ns, name, input, param, plain); }
};

inline HostileOp randomHostileOp(QRandomGenerator& random)
{
    std::set<std::string> used;
    HostileOp op;
    op.ns = identifier(random, used, "q");
    op.name = identifier(random, used, "qo");
    op.input = identifier(random, used, "qi");
    op.param = identifier(random, used, "qp");
    op.texts = Texts{hostile(random), hostile(random), hostile(random),
                     hostile(random), hostile(random), hostile(random)};
    op.reference = referenceFor(op.name, op.input, "    return " + op.input + " + 1.0\n");
    return op;
}

} // namespace ptowb::testing
