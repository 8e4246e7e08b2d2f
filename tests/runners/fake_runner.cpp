// A stand-in for a device runner, for tests: reads a scale_gelu case folder the way real
// runners do and answers in one of several ways, good or broken.
//   fake_runner MODE RUN_DIR
// close        computes in double precision: passes, with small non-zero errors
// scale2       computes twice the right answer: fails
// crash        aborts            hang        sleeps far past any timeout
// spawn-hang   starts a child that hangs, then hangs itself
// wrong-shape  writes a [1, 1] output        nothing     writes no output
// truncated    writes half an .npy           garbage     writes random bytes
// exit3        prints a message to stderr and exits with status 3
#include "tensor/npy.h"

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <thread>
#include <unistd.h>

using namespace ptowb;

namespace {

nlohmann::json readJson(const std::string& path)
{
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

Tensor scaleGelu(const Tensor& x, double scale, std::int64_t channels, double factor)
{
    const std::int64_t rows = x.shape()[0], cols = x.shape()[1];
    Tensor y(x.dtype(), {rows, channels});
    for (std::int64_t i = 0; i < rows; ++i)
        for (std::int64_t j = 0; j < channels; ++j) {
            const double v = x.at(i * cols + j);
            const double g =
                0.5 * v * (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v)));
            y.set(i * channels + j, g * scale * factor);
        }
    return y;
}

void sleepForever()
{
    std::this_thread::sleep_for(std::chrono::hours(1));
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 3) {
        std::cerr << "usage: fake_runner MODE RUN_DIR\n";
        return 2;
    }
    const std::string mode = argv[1];
    const std::string dir = argv[2];
    const std::string out = dir + "/outputs/y.npy";
    if (mode == "crash") std::abort();
    if (mode == "hang") sleepForever();
    if (mode == "spawn-hang") {
        if (fork() == 0) sleepForever();
        sleepForever();
    }
    if (mode == "exit3") {
        std::cerr << "device not found: is the phone connected?\n";
        return 3;
    }
    if (mode == "nothing") return 0;
    if (mode == "garbage") {
        std::ofstream(out, std::ios::binary) << "this is not an npy file";
        return 0;
    }

    auto read = readNpy(dir + "/inputs/x.npy");
    if (auto* e = std::get_if<std::string>(&read)) {
        std::cerr << *e << '\n';
        return 1;
    }
    const nlohmann::json params = readJson(dir + "/params.json");
    const nlohmann::json run = readJson(dir + "/run.json");
    const Tensor x = std::get<Tensor>(read);
    if (mode == "wrong-shape") {
        writeNpy(out, Tensor(x.dtype(), {1, 1}));
        return 0;
    }
    const std::int64_t channels = run["outputs"][0]["shape"][1].get<std::int64_t>();
    if (channels != params["channels"].get<std::int64_t>()) {
        std::cerr << "run.json and params.json disagree\n";
        return 1;
    }
    const Tensor y =
        scaleGelu(x, params["scale"].get<double>(), channels, mode == "scale2" ? 2.0 : 1.0);
    if (std::string e = writeNpy(out, y); !e.empty()) {
        std::cerr << e << '\n';
        return 1;
    }
    if (mode == "truncated") {
        if (truncate(out.c_str(), 80 + std::int64_t(y.byteSize()) / 2) != 0) return 1;
    }
    return 0;
}
