#pragma once

#include "diag/diagnostic.h"

#include <optional>
#include <string>

namespace ptowb {

// The reference checker's verdicts, kept on disk by content so that checking an unchanged
// reference again — every `ptowb-cli validate`, every Verify — starts no checker and loads no
// libtorch. An entry lives in the user's cache (cacheRoot()/reference-verdicts), never in a
// project: a project cannot ship a verdict.
//
// The key covers everything the verdict depends on: the checker's request (the op's names,
// inputs, parameters and outputs, and the reference's text) and the identity of the checker,
// the engine module and the libtorch it links (path, size and modification time of each).
//
// An entry is data from a file anyone with access to the cache could have written: it is read
// with a size limit, without following a symbolic link, parsed as JSON and checked against its
// key and a digest of its content; anything else is no entry, and the reference is checked again.
std::string referenceVerdictKey(const std::string& checkerPath, const std::string& request);
std::optional<Diagnostics> loadReferenceVerdict(const std::string& key);
// Written atomically; a verdict that cannot be kept is simply not kept.
void storeReferenceVerdict(const std::string& key, const Diagnostics& diagnostics);

// The file of the entry for `key`, for tests.
std::string referenceVerdictPath(const std::string& key);

} // namespace ptowb
