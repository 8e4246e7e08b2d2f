#include "commands.h"
#include "run/reports.h"
#include "tensor/compare_files.h"

#include <cstdlib>
#include <ostream>

namespace ptowb::cli {

int runCompare(const CommandLine& cmd, std::ostream& out, std::ostream& err)
{
    if (cmd.positional.size() != 2) {
        err << "usage: ptowb-cli compare ACTUAL.npy EXPECTED.npy [--rtol R] [--atol A] [--json]\n";
        return kUsageError;
    }
    // Headers only: the data is read as it is compared.
    std::vector<NpyBlockReader> files;
    for (const std::string& path : cmd.positional) {
        auto opened = NpyBlockReader::open(path);
        if (auto* e = std::get_if<std::string>(&opened)) {
            err << "ptowb-cli: " << *e << '\n';
            return kUsageError;
        }
        files.push_back(std::move(std::get<NpyBlockReader>(opened)));
    }
    Criteria criteria = defaultCriteria(files[1].dtype());
    for (const char* key : {"rtol", "atol"}) {
        const auto values = cmd.values(key);
        if (values.empty()) continue;
        char* end = nullptr;
        const double v = std::strtod(values.back().c_str(), &end);
        if (*end != '\0' || !(v >= 0)) {
            err << "ptowb-cli: --" << key << " takes a non-negative number\n";
            return kUsageError;
        }
        (std::string(key) == "rtol" ? criteria.rtol : criteria.atol) = v;
    }
    auto compared = compareNpyFiles(files[0], files[1], compareOptionsFor(criteria));
    if (auto* e = std::get_if<std::string>(&compared)) {
        err << "ptowb-cli: " << *e << '\n';
        return kUsageError;
    }
    const Comparison& comparison = std::get<Comparison>(compared);
    const Verdict verdict = judge(comparison, criteria);
    if (cmd.hasFlag("json")) {
        out << comparisonJson(comparison, verdict).dump(2) << '\n';
    } else {
        out << (verdict.pass ? "PASS: " : "FAIL: ") << verdict.reason << " [" << verdict.rule
            << "]\n";
        if (comparison.shapesMatch) {
            const ErrorMetrics& m = comparison.metrics;
            out << "max_abs_error " << m.maxAbsError << "  mean_abs_error " << m.meanAbsError
                << "  max_rel_error " << m.maxRelError << "\nrmse " << m.rmse << "  cosine "
                << m.cosine << "  rel_euclidean " << m.relEuclidean << "\nmismatches "
                << m.mismatchCount << " (" << m.mismatchRatio << ")  double_thousandth "
                << m.doubleThousandthRatio << "  max_ulp "
                << (m.maxUlp ? std::to_string(std::int64_t(*m.maxUlp)) : std::string("n/a"))
                << "\nNaN " << m.nanActual << "/" << m.nanExpected << "  Inf " << m.infActual << "/"
                << m.infExpected << " (actual/expected)\n";
        }
        if (comparison.uniformError)
            out << "uniform error: " << comparison.uniformError->describe() << " (residual rms "
                << comparison.uniformError->residualRms << ")\n";
    }
    return verdict.pass ? kSuccess : kFailure;
}

} // namespace ptowb::cli
