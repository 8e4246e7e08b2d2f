// ptowb-kernel-worker: runs kernel.py files for the workbench (see worker/kernel_worker.h).
#include "worker/kernel_worker.h"

int main(int argc, char** argv)
{
    return ptowb::worker::serve(argc, argv);
}
