#include "spec/identifiers.h"

#include <algorithm>
#include <array>

namespace ptowb {
namespace {

constexpr std::string_view kPythonKeywords[]{
    "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
    "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
    "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
    "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};

constexpr std::string_view kCppKeywords[]{"alignas",       "alignof",     "and",
                                          "and_eq",        "asm",         "auto",
                                          "bitand",        "bitor",       "bool",
                                          "break",         "case",        "catch",
                                          "char",          "char8_t",     "char16_t",
                                          "char32_t",      "class",       "compl",
                                          "concept",       "const",       "consteval",
                                          "constexpr",     "constinit",   "const_cast",
                                          "continue",      "co_await",    "co_return",
                                          "co_yield",      "decltype",    "default",
                                          "delete",        "do",          "double",
                                          "dynamic_cast",  "else",        "enum",
                                          "explicit",      "export",      "extern",
                                          "false",         "float",       "for",
                                          "friend",        "goto",        "if",
                                          "inline",        "int",         "long",
                                          "mutable",       "namespace",   "new",
                                          "noexcept",      "not",         "not_eq",
                                          "nullptr",       "operator",    "or",
                                          "or_eq",         "private",     "protected",
                                          "public",        "register",    "reinterpret_cast",
                                          "requires",      "return",      "short",
                                          "signed",        "sizeof",      "static",
                                          "static_assert", "static_cast", "struct",
                                          "switch",        "template",    "this",
                                          "thread_local",  "throw",       "true",
                                          "try",           "typedef",     "typeid",
                                          "typename",      "union",       "unsigned",
                                          "using",         "virtual",     "void",
                                          "volatile",      "wchar_t",     "while",
                                          "xor",           "xor_eq",      "final",
                                          "override",      "import",      "module"};

bool isLower(char c)
{
    return c >= 'a' && c <= 'z';
}
bool isUpper(char c)
{
    return c >= 'A' && c <= 'Z';
}
bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

std::string keywordReason(std::string_view name)
{
    if (std::find(std::begin(kPythonKeywords), std::end(kPythonKeywords), name) !=
        std::end(kPythonKeywords))
        return "'" + std::string(name) + "' is a Python keyword";
    if (std::find(std::begin(kCppKeywords), std::end(kCppKeywords), name) != std::end(kCppKeywords))
        return "'" + std::string(name) + "' is a C++ keyword";
    return {};
}

} // namespace

bool isPythonKeyword(std::string_view word)
{
    return std::find(std::begin(kPythonKeywords), std::end(kPythonKeywords), word) !=
           std::end(kPythonKeywords);
}

bool isReservedWord(std::string_view word)
{
    return !keywordReason(word).empty();
}

std::string checkIdentifier(std::string_view name)
{
    if (name.empty()) return "a name cannot be empty";
    if (name.size() > 64) return "a name may have at most 64 characters";
    if (!(isLower(name[0]) || name[0] == '_'))
        return "'" + std::string(name) +
               "' must start with a lower-case letter or '_' (pattern [a-z_][a-z0-9_]*)";
    for (char c : name)
        if (!(isLower(c) || isDigit(c) || c == '_'))
            return "'" + std::string(name) +
                   "' may only contain a-z, 0-9 and '_' (pattern [a-z_][a-z0-9_]*)";
    if (name.size() >= 2 && name[0] == '_' && name[1] == '_')
        return "names starting with '__' are reserved";
    return keywordReason(name);
}

std::string checkArgumentName(std::string_view name)
{
    if (name.empty()) return "a name cannot be empty";
    if (name.size() > 64) return "a name may have at most 64 characters";
    if (!(isLower(name[0]) || isUpper(name[0]) || name[0] == '_'))
        return "'" + std::string(name) +
               "' must start with a letter or '_' (pattern [A-Za-z_][A-Za-z0-9_]*)";
    for (char c : name)
        if (!(isLower(c) || isUpper(c) || isDigit(c) || c == '_'))
            return "'" + std::string(name) +
                   "' may only contain letters, digits and '_' (pattern [A-Za-z_][A-Za-z0-9_]*)";
    if (name.size() >= 2 && name[0] == '_' && name[1] == '_')
        return "names starting with '__' are reserved";
    // A C++ keyword is a fine name here (a gradient input `do`): generated C++ prefixes these
    // names (`I_do`, `P_do`) or pastes them into CANN's macro names (`get_input_desc_do`).
    if (isPythonKeyword(name)) return "'" + std::string(name) + "' is a Python keyword";
    return {};
}

std::string checkOpTypeName(std::string_view name)
{
    if (name.empty()) return "op_type cannot be empty";
    if (name.size() > 64) return "op_type may have at most 64 characters";
    if (!isUpper(name[0]))
        return "'" + std::string(name) +
               "' must start with an upper-case letter (pattern [A-Z][A-Za-z0-9]*)";
    for (char c : name)
        if (!(isLower(c) || isUpper(c) || isDigit(c)))
            return "'" + std::string(name) +
                   "' may only contain letters and digits (pattern [A-Z][A-Za-z0-9]*)";
    return keywordReason(name);
}

} // namespace ptowb
