// ptowb-reference-check [--seconds S] [--memory-limit-mb N]: compiles reference.py for its
// diagnostics, away from the workbench's process (reference/reference_checker.h). Reads the
// request (JSON) on stdin, writes the diagnostics (JSON) on stdout.
#include "reference/reference_checker.h"

int main(int argc, char** argv)
{
    return ptowb::runReferenceChecker(argc, argv);
}
