#include "codegen/glue.h"
#include "codegen/glue_facts.h"
#include "codegen/templates.h"
#include "text/template_text.h"

#include <cctype>
#include <filesystem>
#include <string_view>

namespace ptowb::codegen {

namespace {

bool isWordChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) != 0;
}

bool endsWord(const std::string& text, std::size_t k, std::string_view word)
{
    if (k < word.size()) return false;
    for (std::size_t i = 0; i < word.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(text[k - word.size() + i])) != word[i])
            return false;
    return true;
}

// The description as Markdown text that renders as it reads and still reads as plain text.
// Escaped are only the characters that can give text a structure: anywhere, those that open
// code spans, emphasis, links and images, HTML tags and entities, table cells and escapes;
// at a line's start, those that open a heading, list, block quote or setext underline (not
// "-1" or "#2", which open none); and what would turn a bare address into a link. Lines lose
// their indentation (no code block). So `y = gelu(x)` stays as it is, and a description can
// open no code block, link, image, HTML tag or heading that would pass for the package's own.
std::string markdownText(const std::string& text)
{
    constexpr std::string_view kAnywhere = "\\`*_[]<>|~&";
    constexpr std::string_view kLineStart = "#-+=";
    std::string out;
    std::size_t k = 0;
    while (k < text.size()) {
        while (k < text.size() && (text[k] == ' ' || text[k] == '\t'))
            ++k;
        const std::size_t start = k;
        std::size_t digits = k; // "12." or "12)" then a space is an ordered list item
        while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits])))
            ++digits;
        for (; k < text.size() && text[k] != '\n'; ++k) {
            const char c = text[k];
            if (c == '\r') continue;
            const bool wordFollows = k + 1 < text.size() && isWordChar(text[k + 1]);
            const bool marker =
                (k == start && kLineStart.find(c) != std::string_view::npos && !wordFollows) ||
                (k == digits && digits > start && (c == '.' || c == ')') &&
                 (k + 1 == text.size() || std::isspace(static_cast<unsigned char>(text[k + 1]))));
            // Autolinks: "scheme://", "www." and "name@host"; an escaped character splits the
            // text an autolink is looked for in.
            const bool address = (c == ':' && text.compare(k + 1, 2, "//") == 0) ||
                                 (c == '.' && endsWord(text, k, "www")) || c == '@';
            if (kAnywhere.find(c) != std::string_view::npos || marker || address) out += '\\';
            out += c;
        }
        if (k < text.size()) out += text[k++]; // the newline
    }
    return out;
}

} // namespace

std::string packagedKernelFile(const OpSpec& spec)
{
    return std::filesystem::path(spec.kernel.file).lexically_normal().generic_string();
}

std::string generatePackageReadme(const GlueSource& source)
{
    const OpSpec& spec = source.spec;
    const GlueFacts facts = glueFacts(source);
    const std::string doc = spec.doc.empty() ? "(no description)" : markdownText(spec.doc);
    return fillTemplate(packageReadmeTemplate(), {
                                                     {"QUALIFIED", facts.qualifiedName},
                                                     {"VERSION", spec.version},
                                                     {"DOC", doc},
                                                     {"SHA", facts.opJsonSha256},
                                                     {"PACKAGE", facts.packageName},
                                                     {"NAMESPACE", spec.ns},
                                                     {"NAME", spec.name},
                                                     {"KERNEL_FILE", packagedKernelFile(spec)},
                                                     {"OP_TYPE", spec.opType},
                                                     {"ORIGIN", spec.ns + "::1::" + spec.opType},
                                                 });
}

} // namespace ptowb::codegen
