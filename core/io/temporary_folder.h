#pragma once

#include <string>

namespace ptowb {

// A new private (0700) folder named `prefix` plus six random characters — in the system's
// temporary folder when `prefix` has no folder part — removed with everything in it when this
// goes, unless kept. path() is "" and error() says why when it could not be made.
class TemporaryFolder
{
public:
    explicit TemporaryFolder(const std::string& prefix = {});
    ~TemporaryFolder();
    TemporaryFolder(const TemporaryFolder&) = delete;
    TemporaryFolder& operator=(const TemporaryFolder&) = delete;

    bool valid() const { return !m_path.empty(); }
    const std::string& path() const { return m_path; }
    const std::string& error() const { return m_error; }
    void keep() { m_keep = true; } // it was moved or is wanted: leave it

private:
    std::string m_path;
    std::string m_error;
    bool m_keep = false;
};

} // namespace ptowb
