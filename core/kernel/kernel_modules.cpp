#include "kernel/kernel_modules.h"

#include "kernel/kernel_parser.h"

#include <algorithm>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

namespace fs = std::filesystem;

namespace ptowb::kernel {

namespace {

bool isFile(const fs::path& p)
{
    std::error_code ec;
    return fs::is_regular_file(p, ec);
}

bool isFolder(const fs::path& p)
{
    std::error_code ec;
    return fs::is_directory(p, ec);
}

std::vector<std::string> split(const std::string& dotted)
{
    std::vector<std::string> parts;
    size_t start = 0;
    while (start <= dotted.size()) {
        const size_t dot = dotted.find('.', start);
        const std::string part =
            dotted.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        if (!part.empty()) parts.push_back(part);
        if (dot == std::string::npos) break;
        start = dot + 1;
    }
    return parts;
}

void importedModules(const std::vector<Stmt>& statements, std::vector<std::string>& out)
{
    for (const Stmt& s : statements) {
        if (s.kind == StmtKind::Import) out.insert(out.end(), s.modules.begin(), s.modules.end());
        if (s.kind == StmtKind::Def && s.function) importedModules(s.function->body, out);
        importedModules(s.body, out);
        importedModules(s.orelse, out);
        for (const Stmt& h : s.handlers)
            importedModules(h.body, out);
    }
}

class ModuleFinder
{
public:
    ModuleFinder(const std::string& projectFolder, const std::string& kernelFile)
    {
        std::error_code ec;
        m_project = fs::weakly_canonical(fs::absolute(projectFolder, ec), ec);
        const fs::path kernel = (m_project / kernelFile).lexically_normal();
        m_searched.push_back(kernel.parent_path());
        fs::path root = kernel.parent_path();
        while (root != m_project && inside(root.parent_path()) && isFile(root / "__init__.py"))
            root = root.parent_path();
        if (root != m_searched.front()) m_searched.push_back(root);
        m_importRoot = root;
        m_seen.insert(kernel);
        m_queue.push_back(kernel);
        // The packages the kernel file is in run before it, and mark where its import path is.
        for (fs::path package = kernel.parent_path(); package != root;
             package = package.parent_path())
            add(package / "__init__.py");
    }

    std::vector<std::string> run()
    {
        while (!m_queue.empty()) {
            const fs::path file = m_queue.front();
            m_queue.pop_front();
            std::vector<std::string> names;
            importedModules(parseKernel(read(file), file.string(), m_ignored).statements, names);
            m_ignored.clear(); // a module's syntax errors are its own to report when it runs
            for (const std::string& name : names)
                resolve(name, file);
        }
        std::vector<std::string> files;
        for (const fs::path& f : m_found)
            files.push_back(f.lexically_relative(m_project).generic_string());
        std::sort(files.begin(), files.end());
        return files;
    }

private:
    bool inside(const fs::path& p) const
    {
        const fs::path relative = p.lexically_relative(m_project);
        return !relative.empty() && *relative.begin() != "..";
    }

    static std::string read(const fs::path& file)
    {
        std::error_code ec;
        const auto size = fs::file_size(file, ec);
        if (ec || size > static_cast<std::uintmax_t>(kMaxModuleBytes)) return {};
        std::ifstream in(file, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    }

    // A real file of the project, by its canonical path (a link that leaves it is not).
    void add(const fs::path& file)
    {
        std::error_code ec;
        const fs::path real = fs::weakly_canonical(file, ec);
        if (ec || !inside(real) || !isFile(real)) return;
        if (fs::file_size(real, ec) > static_cast<std::uintmax_t>(kMaxModuleBytes) || ec) return;
        if (!m_seen.insert(file.lexically_normal()).second) return;
        m_found.push_back(file.lexically_normal());
        m_queue.push_back(file.lexically_normal());
    }

    // The files `parts` names from `folder`: each package's __init__.py on the way, and the
    // module file where the path ends in one (what follows it names things in the module).
    // Whether the first part was found there.
    bool walk(fs::path folder, const std::vector<std::string>& parts)
    {
        for (size_t i = 0; i < parts.size(); ++i) {
            const fs::path package = folder / parts[i];
            if (isFolder(package)) {
                if (isFile(package / "__init__.py")) add(package / "__init__.py");
                folder = package;
                continue;
            }
            if (isFile(folder / (parts[i] + ".py"))) {
                add(folder / (parts[i] + ".py"));
                return true;
            }
            return i > 0;
        }
        return !parts.empty();
    }

    void resolve(const std::string& name, const fs::path& importer)
    {
        const std::vector<std::string> parts = split(name);
        const size_t level = std::min(name.find_first_not_of('.'), name.size());
        if (level == 0) {
            for (const fs::path& folder : m_searched)
                if (walk(folder, parts)) return; // the first folder on the path that has it
            return;
        }
        // Relative: in the importer's package; each dot after the first is the package above.
        fs::path package = importer.parent_path();
        for (size_t i = 1; i < level; ++i)
            package = package.parent_path();
        const fs::path relative = package.lexically_relative(m_importRoot);
        if (relative.empty() || relative == "." || *relative.begin() == "..") return;
        if (isFile(package / "__init__.py")) add(package / "__init__.py");
        walk(package, parts);
    }

    fs::path m_project;
    fs::path m_importRoot;
    std::vector<fs::path> m_searched;
    std::set<fs::path> m_seen;
    std::deque<fs::path> m_queue;
    std::vector<fs::path> m_found;
    Diagnostics m_ignored;
};

} // namespace

std::vector<std::string> kernelModules(const std::string& projectFolder,
                                       const std::string& kernelFile)
{
    return ModuleFinder(projectFolder, kernelFile).run();
}

} // namespace ptowb::kernel
