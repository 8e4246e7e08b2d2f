#include "project/atomic_file.h"

#include <QSaveFile>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace ptowb {

// QSaveFile is what keeps the replaced file's permissions; the path and the data cross into Qt
// here and nowhere else in the project layer.
std::string writeFileAtomically(const std::string& path, const std::string& data)
{
    QSaveFile file(QString::fromStdString(path));
    const auto why = [&file] { return file.errorString().toStdString(); };
    if (!file.open(QIODevice::WriteOnly)) return "cannot write " + path + ": " + why();
    if (file.write(data.data(), qint64(data.size())) != qint64(data.size())) {
        const std::string error = why();
        file.cancelWriting();
        return "cannot write " + path + ": " + error;
    }
    if (!file.commit()) return "cannot save " + path + ": " + why();
    return {};
}

bool readTextFile(const std::string& path, std::string& data, std::string& error,
                  std::int64_t maxBytes)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        error = "cannot open " + path + ": it is a folder";
        return false;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = "cannot open " + path + ": " + std::strerror(errno);
        return false;
    }
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec && std::int64_t(size) > maxBytes) {
        error = path + " is " + std::to_string(size) + " bytes; at most " +
                std::to_string(maxBytes) + " bytes are opened";
        return false;
    }
    data.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return true;
}

} // namespace ptowb
