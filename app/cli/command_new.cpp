#include "commands.h"
#include "project/new_project.h"

#include <ostream>

namespace ptowb::cli {

int runNew(const CommandLine& cmd, std::ostream& out, std::ostream& err)
{
    const auto templates = cmd.values("template");
    const auto names = cmd.values("name");
    if (cmd.positional.size() != 1 || templates.empty() || names.empty()) {
        err << "usage: ptowb-cli new DIR --template elementwise|reduction|matmul --name N "
               "[--namespace NS]\n";
        return kUsageError;
    }
    NewProjectOptions options;
    options.folder = cmd.positional[0];
    options.templateName = templates.back();
    options.name = names.back();
    if (const auto ns = cmd.values("namespace"); !ns.empty()) options.ns = ns.back();
    if (const std::string error = createProjectFromTemplate(options); !error.empty()) {
        err << "ptowb-cli: " << error << '\n';
        return kUsageError;
    }
    out << "created " << options.folder << " (" << options.ns << "::" << options.name
        << " from the " << options.templateName << " template); next: ptowb-cli verify "
        << options.folder << " --against sim\n";
    return kSuccess;
}

} // namespace ptowb::cli
