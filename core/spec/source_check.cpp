#include "spec/source_check.h"

#include "diag/suggest.h"
#include "spec/spec_reader.h"

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace ptowb {

namespace fs = std::filesystem;

std::string checkRelativePath(std::string_view path)
{
    if (path.empty()) return "the file name is empty";
    if (path.front() == '/' || path.front() == '\\' || (path.size() > 1 && path[1] == ':'))
        return "\"" + std::string(path) + "\" must be relative to the project folder";
    for (const auto& part : fs::path(std::string(path)))
        if (part == "..")
            return "\"" + std::string(path) + "\" must stay inside the project folder (no '..')";
    return {};
}

namespace {

std::vector<std::string> topLevelNames(std::string_view source,
                                       std::initializer_list<std::string_view> keywords)
{
    std::vector<std::string> names;
    std::size_t pos = 0;
    while (pos < source.size()) {
        std::size_t end = source.find('\n', pos);
        if (end == std::string_view::npos) end = source.size();
        std::string_view line = source.substr(pos, end - pos);
        for (std::string_view prefix : keywords) {
            if (line.substr(0, prefix.size()) != prefix) continue;
            std::string_view rest = line.substr(prefix.size());
            while (!rest.empty() && rest.front() == ' ')
                rest.remove_prefix(1);
            std::size_t n = 0;
            while (n < rest.size() &&
                   (std::isalnum(static_cast<unsigned char>(rest[n])) || rest[n] == '_'))
                ++n;
            if (n > 0) names.emplace_back(rest.substr(0, n));
        }
        pos = end + 1;
    }
    return names;
}

// A kernel made inside a function: the function that makes it (made_by's NAME, or Class of
// Class.NAME) is at the top level; the kernel's own def may be anywhere, even in another module.
void checkMaker(SpecReader& reader, const std::string& pointer, const SourceFileRef& ref,
                std::string_view source)
{
    const std::string head = ref.maker();
    if (ref.madeBy == kMainBlockMaker) {
        // The file's `if __name__ == "__main__":` block, at the top level.
        static const std::regex kMainBlock(
            R"((^|\n)if\s+__name__\s*==\s*(\"__main__\"|'__main__')\s*:)");
        if (!std::regex_search(source.begin(), source.end(), kMainBlock))
            reader.error(pointer + "/made_by", "spec.missing-function",
                         "\"" + ref.file +
                             "\" has no `if __name__ == \"__main__\":` block (kernel.made_by)");
        return;
    }
    const bool method = ref.madeBy.find('.') < ref.madeBy.find('[');
    const std::vector<std::string> names =
        method ? topLevelNames(source, {"class "}) : topLevelFunctions(source);
    if (std::find(names.begin(), names.end(), head) != names.end()) return;
    std::string message = "\"" + ref.file + "\" defines no top-level " +
                          (method ? "class '" : "function '") + head + "' (kernel.made_by)";
    message += didYouMean(head, names);
    reader.error(pointer + "/made_by", "spec.missing-function", message);
}

} // namespace

std::vector<std::string> topLevelFunctions(std::string_view source)
{
    return topLevelNames(source, {"def ", "async def "});
}

void checkSourceFile(SpecReader& reader, const std::string& pointer, const std::string& projectDir,
                     const SourceFileRef& ref)
{
    const fs::path path = fs::path(projectDir) / ref.file;
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) {
        reader.error(pointer + "/file", "spec.missing-file",
                     "file \"" + ref.file + "\" does not exist in the project folder");
        return;
    }
    constexpr std::uintmax_t kMaxSource = 4u << 20;
    if (fs::file_size(path, ec) > kMaxSource) {
        reader.error(pointer + "/file", "spec.file-too-large",
                     "\"" + ref.file + "\" is larger than 4 MiB");
        return;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        reader.error(pointer + "/file", "io.read", "cannot read \"" + ref.file + "\"");
        return;
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (!ref.madeBy.empty()) return checkMaker(reader, pointer, ref, text.str());
    if (ref.function.empty()) return;
    const std::vector<std::string> functions = topLevelFunctions(text.str());
    if (std::find(functions.begin(), functions.end(), ref.function) != functions.end()) return;
    std::string message =
        "\"" + ref.file + "\" defines no top-level function '" + ref.function + "'";
    const std::string hint = didYouMean(ref.function, functions);
    if (!hint.empty())
        message += hint;
    else if (!functions.empty())
        message += " (it defines " + joinQuoted(functions) + ")";
    reader.error(pointer + "/function", "spec.missing-function", message);
}

} // namespace ptowb
