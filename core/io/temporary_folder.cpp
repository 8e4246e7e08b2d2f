#include "io/temporary_folder.h"

#include "io/remove_tree.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace ptowb {

TemporaryFolder::TemporaryFolder(const std::string& prefix)
{
    namespace fs = std::filesystem;
    std::string pattern = prefix;
    if (fs::path(prefix).parent_path().empty()) {
        std::error_code ec;
        pattern = (fs::temp_directory_path(ec) / (prefix.empty() ? "ptowb-" : prefix)).string();
    }
    pattern += "XXXXXX";
    if (::mkdtemp(pattern.data()))
        m_path = pattern;
    else
        m_error = std::strerror(errno);
}

TemporaryFolder::~TemporaryFolder()
{
    if (valid() && !m_keep) removeTree(m_path);
}

} // namespace ptowb
