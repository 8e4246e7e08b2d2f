#include "commands.h"
#include "run/reports.h"
#include "tensor/compare.h"
#include "tensor/npy.h"

#include <cstdlib>
#include <ostream>

namespace ptowb::cli {

int runCompare(const CommandLine& cmd, std::ostream& out, std::ostream& err)
{
    if (cmd.positional.size() != 2) {
        err << "usage: ptowb-cli compare ACTUAL.npy EXPECTED.npy [--rtol R] [--atol A] [--json]\n";
        return kUsageError;
    }
    std::vector<Tensor> tensors;
    for (const std::string& path : cmd.positional) {
        auto read = readNpy(path);
        if (auto* e = std::get_if<std::string>(&read)) {
            err << "ptowb-cli: " << *e << '\n';
            return kUsageError;
        }
        tensors.push_back(std::move(std::get<Tensor>(read)));
    }
    Criteria criteria = defaultCriteria(tensors[1].dtype());
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
    CompareOptions options;
    options.rtol = criteria.rtol;
    options.atol = criteria.atol;
    const Comparison comparison = compareTensors(tensors[0], tensors[1], options);
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
    }
    return verdict.pass ? kSuccess : kFailure;
}

} // namespace ptowb::cli
