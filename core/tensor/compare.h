#pragma once

#include "spec/op_spec.h"
#include "tensor/tensor.h"

#include <memory>
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
    // Count ErrorMetrics::passVerify* and zeroPairs (the pass_verify criterion needs them; the
    // other criteria skip that work).
    bool passVerify = false;
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
    // PyPTO's pass verification (flow_verifier.h): pairs with |a - e| > (|a| + |e|) * rtol / 2 +
    // atol, pairs beyond 128 times that, and pairs of zeros (which it does not count).
    // Counted only with CompareOptions::passVerify (then passVerifyCounted is set).
    std::int64_t passVerifyErrors = 0, passVerifyFailures = 0, zeroPairs = 0;
    bool passVerifyCounted = false;
    std::optional<double> maxUlp; // only when both tensors have the same floating or integer dtype
    std::int64_t nanActual = 0, nanExpected = 0, infActual = 0, infExpected = 0;
    // Pairs NaN on both sides: mismatches, as torch.allclose counts them without equal_nan.
    std::int64_t nanBoth = 0;
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

// An error the same for every element: actual ≈ scale × expected + offset, from a
// least-squares fit of actual against expected over the finite pairs. A kernel off by a factor
// or by a constant says so in one line, where the metrics alone say only "everything differs".
struct UniformError
{
    double scale = 1;
    double offset = 0;
    double residualRms = 0; // of actual − (scale × expected + offset)

    // "actual ≈ 2.000 × expected", "actual ≈ expected + 0.5", "actual ≈ 2.000 × expected − 1"
    std::string describe() const;
};

struct Comparison
{
    std::vector<std::int64_t> actualShape, expectedShape;
    DType actualDType = DType::Float32, expectedDType = DType::Float32;
    bool shapesMatch = true;
    ErrorMetrics metrics; // valid only when shapesMatch
    std::vector<WorstElement> worst;
    // Named only when elements differ beyond the tolerance (mismatchCount > 0), every pair is
    // finite, and a scale (≠ 1 beyond rtol) and/or an offset (beyond atol) explains the error:
    // what is left once it is removed is within the tolerance and at most 1% of the RMSE.
    std::optional<UniformError> uniformError;
};

// One pass over both tensors, split across the machine's cores.
Comparison compareTensors(const Tensor& actual, const Tensor& expected,
                          const CompareOptions& options);

// The same pass fed a block at a time, for data that is read as it is compared (compare_files.h):
// blocks of both tensors, flat and of equal length, then finish(). The result is compareTensors'
// for the whole, but for the order in which the sums are added.
class BlockComparison
{
public:
    // `lanes`: how many threads feed it at once through addAt.
    BlockComparison(std::vector<std::int64_t> actualShape, DType actualDType,
                    std::vector<std::int64_t> expectedShape, DType expectedDType,
                    const CompareOptions& options, int lanes = 1);
    ~BlockComparison();
    BlockComparison(const BlockComparison&) = delete;
    BlockComparison& operator=(const BlockComparison&) = delete;

    // The shapes match: only then are blocks compared.
    bool comparable() const;
    // The next block, in order, compared on all of the machine's cores.
    void add(const Tensor& actualBlock, const Tensor& expectedBlock);
    // A block starting at element `first`, in any order, on the calling thread; threads feeding
    // blocks at the same time each use a lane of their own. Not mixed with add().
    void addAt(int lane, std::int64_t first, const Tensor& actualBlock,
               const Tensor& expectedBlock);
    Comparison finish();

private:
    struct State;
    std::unique_ptr<State> m_state;
};

// The rule a verdict applies: which criteria, with which thresholds.
struct Criteria
{
    std::vector<std::string> names; // allclose, ratio, pass_verify, cosine, double_thousandth
    double rtol = 1e-3;
    double atol = 1e-3;
    double maxErrorRatio = 0.005;
    double minCosine = 0.9999;
    double minDoubleThousandth = 0.999;

    std::string describe() const; // "allclose(rtol=0.001, atol=0.001)"
};

// What a comparison judged by `criteria` counts: its rtol and atol, and whether pass_verify's
// counts are needed.
CompareOptions compareOptionsFor(const Criteria& criteria);

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

// How many pairs PyPTO's pass verification lets lie outside its tolerance.
std::int64_t passVerifyAllowance(const ErrorMetrics& metrics, const Criteria& criteria);

} // namespace ptowb
