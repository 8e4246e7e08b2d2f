#include "tensor/error_map.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <thread>

namespace ptowb {

namespace {

double errorAt(const Tensor& a, const Tensor& e, std::int64_t k, bool relative)
{
    const double x = a.at(k), y = e.at(k);
    if (std::isnan(x) || std::isnan(y))
        return std::isnan(x) && std::isnan(y) ? 0.0 : std::numeric_limits<double>::infinity();
    if (std::isinf(x) || std::isinf(y))
        return x == y ? 0.0 : std::numeric_limits<double>::infinity();
    const double d = std::fabs(x - y);
    if (!relative) return d;
    return std::fabs(y) <= 1e-12 ? 0.0 : d / std::fabs(y);
}

} // namespace

std::vector<std::int64_t> sliceIndex(const SliceSpec& slice, std::size_t rank, std::int64_t row,
                                     std::int64_t col)
{
    std::vector<std::int64_t> index(rank, 0);
    for (std::size_t d = 0; d < rank; ++d)
        index[d] = d < slice.fixed.size() ? slice.fixed[d] : 0;
    if (rank == 0) return index;
    if (rank == 1) {
        index[0] = col;
        return index;
    }
    index[std::size_t(slice.rowAxis)] = row;
    index[std::size_t(slice.colAxis)] = col;
    return index;
}

std::int64_t flatIndex(const std::vector<std::int64_t>& shape,
                       const std::vector<std::int64_t>& index)
{
    std::int64_t flat = 0;
    for (std::size_t d = 0; d < shape.size(); ++d)
        flat = flat * shape[d] + index[d];
    return flat;
}

ErrorMap computeErrorMap(const Tensor& actual, const Tensor& expected, const SliceSpec& slice,
                         int maxRows, int maxCols)
{
    ErrorMap map;
    if (actual.shape() != expected.shape()) {
        map.error = "the outputs have different shapes";
        return map;
    }
    const auto& shape = actual.shape();
    const std::size_t rank = shape.size();
    if (rank >= 2 &&
        (slice.rowAxis < 0 || slice.colAxis < 0 || std::size_t(slice.rowAxis) >= rank ||
         std::size_t(slice.colAxis) >= rank || slice.rowAxis == slice.colAxis)) {
        map.error = "choose two different axes of the tensor";
        return map;
    }
    for (std::size_t d = 0; d < rank && d < slice.fixed.size(); ++d)
        if (slice.fixed[d] < 0 || slice.fixed[d] >= std::max<std::int64_t>(shape[d], 1)) {
            map.error = "index " + std::to_string(slice.fixed[d]) + " is out of range for axis " +
                        std::to_string(d);
            return map;
        }
    map.rows = rank >= 2 ? shape[std::size_t(slice.rowAxis)] : 1;
    map.cols = rank >= 2 ? shape[std::size_t(slice.colAxis)] : rank == 1 ? shape[0] : 1;
    map.cellRows = std::max<std::int64_t>(1, (map.rows + maxRows - 1) / std::max(maxRows, 1));
    map.cellCols = std::max<std::int64_t>(1, (map.cols + maxCols - 1) / std::max(maxCols, 1));
    map.gridRows = int((map.rows + map.cellRows - 1) / map.cellRows);
    map.gridCols = int((map.cols + map.cellCols - 1) / map.cellCols);
    map.cells.assign(std::size_t(map.gridRows) * std::size_t(map.gridCols), 0.0f);
    if (actual.numel() == 0) return map;
    // Strides of the two shown axes, so each element is one multiply-add away.
    std::vector<std::int64_t> strides(rank, 1);
    for (std::size_t d = rank; d-- > 1;)
        strides[d - 1] = strides[d] * shape[d];
    const std::int64_t base = flatIndex(shape, sliceIndex(slice, rank, 0, 0));
    const std::int64_t rowStride = rank >= 2 ? strides[std::size_t(slice.rowAxis)] : 0;
    const std::int64_t colStride =
        rank >= 1 ? strides[std::size_t(rank >= 2 ? slice.colAxis : 0)] : 0;
    double worst = -1;
    std::int64_t worstRow = 0, worstCol = 0;
    // Typed loops for the common dtypes: decoding element by element would dominate.
    std::vector<int> colCell(std::size_t(map.cols));
    for (std::int64_t c = 0; c < map.cols; ++c)
        colCell[std::size_t(c)] = int(c / map.cellCols);
    auto scan = [&](auto read) {
        for (std::int64_t r = 0; r < map.rows; ++r) {
            float* cellRow =
                map.cells.data() + std::size_t(r / map.cellRows) * std::size_t(map.gridCols);
            const std::int64_t rowBase = base + r * rowStride;
            for (std::int64_t c = 0; c < map.cols; ++c) {
                const std::int64_t k = rowBase + c * colStride;
                const double x = read(actual, k), y = read(expected, k);
                double err = std::fabs(x - y);
                if (!(err <= std::numeric_limits<double>::max()))
                    err = errorAt(actual, expected, k, slice.relative); // NaN or Inf
                else if (slice.relative)
                    err = std::fabs(y) <= 1e-12 ? 0.0 : err / std::fabs(y);
                float& cell = cellRow[colCell[std::size_t(c)]];
                if (float(err) > cell)
                    cell = float(err); // max-pool: the worst element of a block wins
                if (err > worst) {
                    worst = err;
                    worstRow = r;
                    worstCol = c;
                }
            }
        }
    };
    if (actual.dtype() == DType::Float32 && expected.dtype() == DType::Float32 && colStride == 1 &&
        !slice.relative) {
        // The common case, in float and split across cores by blocks of cell rows.
        const float* pa = actual.values<float>().data();
        const float* pe = expected.values<float>().data();
        const unsigned threads = std::max(1u, std::min(8u, std::thread::hardware_concurrency()));
        struct Worst
        {
            float error = -1;
            std::int64_t row = 0, col = 0;
        };
        std::vector<Worst> worstPerThread(threads);
        auto work = [&](unsigned t) {
            Worst& w = worstPerThread[t];
            for (int gr = int(t); gr < map.gridRows; gr += int(threads))
                for (std::int64_t r = gr * map.cellRows;
                     r < std::min(map.rows, (gr + 1) * map.cellRows); ++r) {
                    float* cellRow = map.cells.data() + std::size_t(gr) * std::size_t(map.gridCols);
                    const float* a = pa + base + r * rowStride;
                    const float* e = pe + base + r * rowStride;
                    for (std::int64_t c = 0; c < map.cols; ++c) {
                        float err = std::fabs(a[c] - e[c]);
                        if (!(err <= std::numeric_limits<float>::max()))
                            err = float(errorAt(actual, expected, base + r * rowStride + c, false));
                        float& cell = cellRow[colCell[std::size_t(c)]];
                        cell = std::max(cell, err);
                        if (err > w.error) w = {err, r, c};
                    }
                }
        };
        std::vector<std::thread> pool;
        for (unsigned t = 1; t < threads; ++t)
            pool.emplace_back(work, t);
        work(0);
        for (auto& th : pool)
            th.join();
        for (const Worst& w : worstPerThread)
            if (w.error > worst || (w.error == worst && (w.row < worstRow || (w.row == worstRow &&
                                                                              w.col < worstCol)))) {
                worst = w.error;
                worstRow = w.row;
                worstCol = w.col;
            }
    } else if (actual.dtype() == DType::Float32 && expected.dtype() == DType::Float32) {
        const float* pa = actual.values<float>().data();
        const float* pe = expected.values<float>().data();
        scan([pa, pe, &actual](const Tensor& t, std::int64_t k) {
            return double((&t == &actual ? pa : pe)[k]);
        });
    } else if (actual.dtype() == DType::Float64 && expected.dtype() == DType::Float64) {
        scan([](const Tensor& t, std::int64_t k) { return t.values<double>()[std::size_t(k)]; });
    } else
        scan([](const Tensor& t, std::int64_t k) { return t.at(k); });
    map.maxError = std::max(worst, 0.0);
    map.worstIndex = sliceIndex(slice, rank, worstRow, worstCol);
    return map;
}

ErrorHistogram errorHistogram(const Tensor& actual, const Tensor& expected, int bins, bool relative)
{
    ErrorHistogram h;
    h.relative = relative;
    const double lo = -8, hi = 2;
    for (int k = 0; k <= bins; ++k)
        h.edges.push_back(lo + (hi - lo) * k / bins);
    h.counts.assign(std::size_t(bins) + 2, 0);
    if (actual.shape() != expected.shape()) return h;
    for (std::int64_t k = 0; k < actual.numel(); ++k) {
        const double err = errorAt(actual, expected, k, relative);
        if (err == 0)
            ++h.counts[0];
        else if (!std::isfinite(err))
            ++h.counts.back();
        else {
            const double l = std::clamp(std::log10(err), lo, hi - 1e-9);
            ++h.counts[1 + std::size_t((l - lo) / (hi - lo) * bins)];
        }
    }
    return h;
}

ErrorMap computeMagnitudeMap(const Tensor& value, const SliceSpec& slice, int maxRows, int maxCols)
{
    SliceSpec absolute = slice;
    absolute.relative = false;
    return computeErrorMap(value, Tensor(value.dtype(), value.shape()), absolute, maxRows, maxCols);
}

ValueStats valueStats(const Tensor& value)
{
    ValueStats stats;
    stats.count = value.numel();
    double sum = 0, sumSquares = 0;
    std::int64_t finite = 0;
    for (std::int64_t k = 0; k < value.numel(); ++k) {
        const double x = value.at(k);
        if (std::isnan(x)) {
            ++stats.nanCount;
            continue;
        }
        if (std::isinf(x)) {
            ++stats.infCount;
            continue;
        }
        if (x == 0) ++stats.zeroCount;
        if (finite++ == 0) stats.min = stats.max = x;
        stats.min = std::min(stats.min, x);
        stats.max = std::max(stats.max, x);
        sum += x;
        sumSquares += x * x;
    }
    if (finite > 0) {
        stats.mean = sum / double(finite);
        stats.stddev =
            std::sqrt(std::max(0.0, sumSquares / double(finite) - stats.mean * stats.mean));
    }
    return stats;
}

} // namespace ptowb
