#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

namespace ptowb {

// Writes the pieces, in order, to a temporary file next to `path` and renames it into place,
// so a reader never sees half a file and a failure leaves the old one. Qt-free, for the
// runtime's own files (tensors, run records, reports); user files edited in the app go through
// QSaveFile, which also keeps their permissions. Returns "" or why it failed.
std::string writeAtomically(const std::string& path,
                            std::initializer_list<std::string_view> pieces);

} // namespace ptowb
