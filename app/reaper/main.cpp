// ptowb-reaper PROGRAM [ARGS...]: runs PROGRAM with stdin from /dev/null and exits as it exits.
// Whatever PROGRAM leaves behind when it ends — children in the background, double-forked, in a
// session of their own — is killed first. The same happens on SIGTERM, SIGINT, SIGHUP or SIGQUIT
// and when the reaper's own stdin, a pipe from the workbench, closes: the workbench was killed.
#include "process/reaper.h"

#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fputs("usage: ptowb-reaper PROGRAM [ARGS...]\n", stderr);
        return 2;
    }
    std::string error;
    const int status = ptowb::process::superviseChild(
        std::vector<std::string>(argv + 1, argv + argc), 0, true, error);
    if (status < 0) {
        std::fprintf(stderr, "ptowb-reaper: %s\n", error.c_str());
        return 127;
    }
    ptowb::process::exitLike(status);
}
