"""pypto.experimental: PyPTO's experimental operations and their options."""
import _ptowb_sim as _sim

from pypto import _ops
from pypto._control import _record, _recorded
from pypto._dtypes import DataType as _DataType
from pypto._enums import CastMode as _CastMode
from pypto._errors import SimulatorError as _SimulatorError, category as _category, not_simulated as _not_simulated


@_category("reduction")
def online_softmax(scores, scale):
    """One block of an online softmax over dim 0 of scores [k_len, q_len]: the exponentials of the
    scaled scores less their column max (as DT_BF16), the column max and the column sum (DT_FP32)."""
    scaled = _ops.mul(scores, scale)
    column_max = _ops.amax(scaled, 0, keepdim=True)
    exps = _ops.exp(_ops.sub(scaled, column_max))
    # The sum is taken over the fp32 exponentials, before they are rounded to bf16.
    column_sum = _ops.sum(exps, 0, keepdim=True)
    return _ops.cast(exps, _DataType.DT_BF16, _CastMode.CAST_ROUND), column_max, column_sum


@_category("reduction")
def online_softmax_update(previous_max, previous_sum, previous_output, current_max, current_sum, current_output):
    """Merges a block's statistics (from online_softmax) into the running ones: the new max, the
    sum and the unnormalised output, each side rescaled by exp(its max - the new max)."""
    updated_max = _ops.maximum(previous_max, current_max)
    previous_scale = _ops.exp(_ops.sub(previous_max, updated_max))
    current_scale = _ops.exp(_ops.sub(current_max, updated_max))
    updated_sum = _ops.add(_ops.mul(previous_scale, previous_sum), _ops.mul(current_scale, current_sum))
    updated_output = _ops.add(_ops.mul(previous_output, previous_scale), _ops.mul(current_output, current_scale))
    return updated_max, updated_sum, updated_output


@_category("matmul")
def transposed_batchmatmul(tensor_a, tensor_b, out_dtype):
    """tensor_a (M, B, K) taken as (B, M, K), times tensor_b (B, K, N), given back as (M, B, N)."""
    product = _ops.matmul(_ops.transpose(tensor_a, 0, 1), tensor_b, out_dtype)
    return _ops.transpose(product, 0, 1)


@_category("option")
def set_operation_options(*, force_combine_axis=None, combine_axis=None):
    _record("operation", dict(locals()))


@_category("option")
def get_operation_options():
    return _recorded("operation")


@_category("data")
def gather_in_ub(param, indices, block_table, block_size, axis):
    """PagedAttention's gather: row j of the result is the row of param's memory that token
    indices[0, j] is in, its block indices[0, j] // block_size mapped by block_table[0]. PyPTO
    takes axis -2 only and does not read it."""
    return _paged_gather("gather_in_ub", param, indices, block_table, block_size, None)


@_category("data")
def gather_in_l1(src, indices, block_table, block_size, size, is_b_matrix, is_trans):
    """gather_in_ub's rows, their first `size` columns, as PyPTO puts them in L1. is_b_matrix and
    is_trans say how the matmul that reads them lays them out; the result is [k, size] either
    way (PyPTO's test multiplies it with b_trans/a_trans set to is_trans)."""
    return _paged_gather("gather_in_l1", src, indices, block_table, block_size, _ops._index(size))


def _paged_gather(name, param, indices, block_table, block_size, columns):
    """The result has PyPTO's shape: a row per declared index and param's declared columns (or
    the first `columns`), narrowed to its valid part, the valid indices' rows and param's valid
    columns, as a view holds only its valid part here (docs/kernels-and-simulator.md). A reshape
    of it takes the declared shape: deepseek_v32 gathers a [k, 8] view of a [tokens, 4] scale
    table and reshapes the result by 8. The declared part past the valid one is param's bytes
    where its view lies inside its tensor, else zeros (undefined on the device)."""
    source = _ops._declared_view(param)
    gathered = _ops._wrap(
        _sim.gather_in_ub(
            _ops._t(source, name), _ops._t(indices, name), _ops._t(block_table, name), _ops._index(block_size)
        )
    )
    declared_width = _declared_shape(param)[1]
    width = declared_width if columns is None else columns
    if width > declared_width:
        raise _SimulatorError(f"pypto.experimental.{name}: size {width} is more than src's {declared_width} columns")
    if gathered.shape[1] > width:
        gathered = _ops.view(gathered, [gathered.shape[0], width], [0, 0])
    declared_rows = _declared_shape(indices)[1]
    valid = [indices.shape[1], min(param.shape[1], width)]
    if list(gathered.shape) == valid == [declared_rows, width]:
        return gathered
    whole = _ops.full([declared_rows, width], 0, param.dtype)
    _ops.assemble(gathered, [0, 0], whole)
    return _ops.view(whole, [declared_rows, width], [0, 0], valid_shape=valid)


def _declared_shape(tensor):
    return getattr(tensor, "_declared", None) or list(tensor.shape)


nop = _not_simulated("experimental.nop", "in_tensors", "data")
shmem_load = _not_simulated(
    "experimental.shmem_load", "src, src_pe, shape=None, offsets=None, *, pred=None, " "valid_shape=None", "data"
)
shmem_store = _not_simulated(
    "experimental.shmem_store", "src, offsets, dst, dst_pe, *, put_op=AtomicType.SET, " "pred=None", "data"
)
