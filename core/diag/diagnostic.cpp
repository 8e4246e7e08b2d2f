#include "diag/diagnostic.h"

#include <algorithm>

namespace ptowb {

const char* severityName(Severity severity)
{
    switch (severity) {
    case Severity::Error:
        return "error";
    case Severity::Warning:
        return "warning";
    case Severity::Note:
        return "note";
    }
    return "error";
}

std::string formatDiagnostic(const Diagnostic& d)
{
    std::string out = d.file;
    if (d.line > 0) {
        out += ':' + std::to_string(d.line);
        if (d.col > 0) out += ':' + std::to_string(d.col);
    }
    out += ": ";
    out += severityName(d.severity);
    out += ": ";
    out += d.message;
    if (!d.code.empty()) out += " [" + d.code + ']';
    return out;
}

bool hasErrors(const Diagnostics& diagnostics)
{
    return std::any_of(diagnostics.begin(), diagnostics.end(),
                       [](const Diagnostic& d) { return d.isError(); });
}

int countErrors(const Diagnostics& diagnostics)
{
    return int(std::count_if(diagnostics.begin(), diagnostics.end(),
                             [](const Diagnostic& d) { return d.isError(); }));
}

} // namespace ptowb
