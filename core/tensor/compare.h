#pragma once

#include "spec/op_spec.h"
#include "tensor/tensor.h"

#include <optional>
#include <string>
#include <vector>

namespace ptowb {

struct CompareOptions
{
    double rtol = 1e-3;
    double atol = 1e-3;
    // Relative error is counted as 0 where |expected| <= relativeFloor.
    double relativeFloor = 1e-9;
    int topK = 10;
};

struct ErrorMetrics
{
    double maxAbsError = 0;
    double meanAbsError = 0;
    double maxRelError = 0;
    double meanRelError = 0;
    double rmse = 0;
    double cosine = 1;
    double relEuclidean = 0;
    std::int64_t mismatchCount = 0; // |a - e| > atol + rtol * |e|, plus NaN/Inf disagreements
    double mismatchRatio = 0;
    double doubleThousandthRatio = 1; // share of elements with relative error < 0.001
    std::optional<double> maxUlp; // only when both tensors have the same floating or integer dtype
    std::int64_t nanActual = 0, nanExpected = 0, infActual = 0, infExpected = 0;
    std::int64_t elements = 0;
    std::int64_t finitePairs =
        0; // elements where both sides are finite; the error sums cover these
};

struct WorstElement
{
    std::vector<std::int64_t> index;
    double actual = 0;
    double expected = 0;
    double absError = 0; // +inf where one side is NaN or Inf and the other is not the same
};

struct Comparison
{
    std::vector<std::int64_t> actualShape, expectedShape;
    DType actualDType = DType::Float32, expectedDType = DType::Float32;
    bool shapesMatch = true;
    ErrorMetrics metrics; // valid only when shapesMatch
    std::vector<WorstElement> worst;
};

// One pass over both tensors, split across the machine's cores.
Comparison compareTensors(const Tensor& actual, const Tensor& expected,
                          const CompareOptions& options);

// The rule a verdict applies: which criteria, with which thresholds.
struct Criteria
{
    std::vector<std::string> names; // allclose, ratio, cosine, double_thousandth
    double rtol = 1e-3;
    double atol = 1e-3;
    double maxErrorRatio = 0.005;
    double minCosine = 0.9999;
    double minDoubleThousandth = 0.999;

    std::string describe() const; // "allclose(rtol=0.001, atol=0.001)"
};

// Defaults per dtype, overridden by the op's tolerance for that dtype and its criteria.
Criteria criteriaFor(const ToleranceSpec& tolerance, DType dtype);
Criteria defaultCriteria(DType dtype);

struct Verdict
{
    bool pass = false;
    std::string reason;
    std::string rule;
};

Verdict judge(const Comparison& comparison, const Criteria& criteria);

} // namespace ptowb
