// ptowb-reference-check [--seconds S] [--memory-limit-mb N]: compiles reference.py for its
// diagnostics, away from the workbench's process (reference/reference_checker.h). Reads the
// request (JSON) on stdin, writes the diagnostics (JSON) on stdout.
#include "reference/reference_checker.h"

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv)
{
    const int status = ptowb::runReferenceChecker(argc, argv);
    // Once the answer is out nothing is left to do, and libtorch's static destructors would
    // spend a fifth of the check's time (~80 ms) before the process ends.
    std::fflush(nullptr);
    std::_Exit(status);
}
