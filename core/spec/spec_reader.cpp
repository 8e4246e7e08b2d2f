#include "spec/spec_reader.h"

#include "diag/suggest.h"

#include <cmath>

namespace ptowb {

void SpecReader::error(const std::string& pointer, std::string code, std::string message,
                       bool atKey)
{
    m_diags.push_back(
        m_doc.diagnostic(pointer, Severity::Error, std::move(code), std::move(message), atKey));
}

void SpecReader::warning(const std::string& pointer, std::string code, std::string message,
                         bool atKey)
{
    m_diags.push_back(
        m_doc.diagnostic(pointer, Severity::Warning, std::move(code), std::move(message), atKey));
}

void SpecReader::errorInString(const std::string& pointer, std::size_t begin, std::size_t end,
                               std::string code, std::string message)
{
    const std::size_t from = m_doc.offsetInString(pointer, begin);
    const std::size_t to = std::max(m_doc.offsetInString(pointer, end), from + 1);
    m_diags.push_back(m_doc.diagnosticAt({from, to}, pointer, Severity::Error, std::move(code),
                                         std::move(message)));
}

std::string SpecReader::child(const std::string& pointer, const std::string& key)
{
    return pointer + '/' + JsonDocument::escapePointerToken(key);
}

std::string SpecReader::child(const std::string& pointer, std::size_t index)
{
    return pointer + '/' + std::to_string(index);
}

void SpecReader::checkKeys(const json& object, const std::string& pointer,
                           const std::vector<std::string>& known)
{
    for (const auto& [key, value] : object.items()) {
        if (std::find(known.begin(), known.end(), key) != known.end()) continue;
        warning(child(pointer, key), "spec.unknown-key",
                "unknown key \"" + key + "\" is ignored" + didYouMean(key, known) +
                    " (known keys: " + joinQuoted(known, "") + ")",
                true);
    }
}

const SpecReader::json* SpecReader::member(const json& object, const std::string& pointer,
                                           const char* key, bool required)
{
    auto it = object.find(key);
    if (it == object.end()) {
        if (required)
            error(pointer, "spec.missing-key", std::string("missing required key \"") + key + "\"");
        return nullptr;
    }
    return &*it;
}

bool SpecReader::isType(const json& value, const std::string& pointer, json::value_t type,
                        const char* what)
{
    const bool ok = value.type() == type ||
                    (type == json::value_t::number_integer && value.is_number_unsigned());
    if (!ok)
        error(pointer, "spec.wrong-type",
              std::string("expected ") + what + ", got " + jsonKindName(value));
    return ok;
}

std::optional<std::string> SpecReader::string(const json& object, const std::string& pointer,
                                              const char* key, bool required)
{
    const json* v = member(object, pointer, key, required);
    if (!v || !isType(*v, child(pointer, key), json::value_t::string, "a string"))
        return std::nullopt;
    return v->get<std::string>();
}

std::optional<std::int64_t> SpecReader::integer(const json& object, const std::string& pointer,
                                                const char* key, bool required, std::int64_t min,
                                                std::int64_t max)
{
    const json* v = member(object, pointer, key, required);
    if (!v) return std::nullopt;
    const std::string p = child(pointer, key);
    const bool inRange64 =
        v->is_number_integer() &&
        (!v->is_number_unsigned() || v->get<std::uint64_t>() <= std::uint64_t(INT64_MAX));
    if (!inRange64 || v->get<std::int64_t>() < min || v->get<std::int64_t>() > max) {
        if (!v->is_number_integer())
            error(p, "spec.wrong-type",
                  std::string("expected an integer, got ") + jsonKindName(*v));
        else
            error(p, "spec.out-of-range",
                  std::string("\"") + key + "\" must be between " + std::to_string(min) + " and " +
                      std::to_string(max));
        return std::nullopt;
    }
    return v->get<std::int64_t>();
}

std::optional<double> SpecReader::number(const json& object, const std::string& pointer,
                                         const char* key, bool required, double min, double max)
{
    const json* v = member(object, pointer, key, required);
    if (!v) return std::nullopt;
    const std::string p = child(pointer, key);
    if (!v->is_number()) {
        error(p, "spec.wrong-type", std::string("expected a number, got ") + jsonKindName(*v));
        return std::nullopt;
    }
    const double d = v->get<double>();
    if (!std::isfinite(d) || d < min || d > max) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "\"%s\" must be between %g and %g", key, min, max);
        error(p, "spec.out-of-range", buf);
        return std::nullopt;
    }
    return d;
}

const SpecReader::json* SpecReader::array(const json& object, const std::string& pointer,
                                          const char* key, bool required)
{
    const json* v = member(object, pointer, key, required);
    if (!v || !isType(*v, child(pointer, key), json::value_t::array, "an array")) return nullptr;
    return v;
}

const SpecReader::json* SpecReader::object(const json& object, const std::string& pointer,
                                           const char* key, bool required)
{
    const json* v = member(object, pointer, key, required);
    if (!v || !isType(*v, child(pointer, key), json::value_t::object, "an object")) return nullptr;
    return v;
}

} // namespace ptowb
