#pragma once

#include <string>
#include <vector>

namespace ptowb {

enum class Severity
{
    Error,
    Warning,
    Note
};

const char* severityName(Severity severity);

// A problem found in a user's file. Lines and columns are 1-based; columns count Unicode
// code points so that they match what an editor shows. endLine/endCol is one past the end.
struct Diagnostic
{
    std::string file;
    int line = 0;
    int col = 0;
    int endLine = 0;
    int endCol = 0;
    Severity severity = Severity::Error;
    std::string code; // stable identifier, e.g. "spec.unknown-key"
    std::string message;
    std::string pointer; // JSON pointer of the offending value when the file is JSON

    bool isError() const { return severity == Severity::Error; }
};

using Diagnostics = std::vector<Diagnostic>;

// "file:line:col: error: message" — the format compilers use, so editors can jump to it.
std::string formatDiagnostic(const Diagnostic& diagnostic);

bool hasErrors(const Diagnostics& diagnostics);
int countErrors(const Diagnostics& diagnostics);

} // namespace ptowb
