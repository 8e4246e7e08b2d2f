"""pypto.op: PyPTO's tensor operations, the same functions as pypto.<name> (PyPTO's package does
`from .op import *`), and the pypto.op.distributed submodule."""
from pypto._ops import (  # noqa: F401 - re-exported: pypto.op is PyPTO's op namespace
    ConvParams, abs, acos, acosh, add, amax, amin, arange, argmax, argmin, argsort, asin, asinh, atan, atan2, atanh,
    axpy_, bitwise_and, bitwise_left_shift, bitwise_not, bitwise_or, bitwise_right_shift, bitwise_xor, cast, cbrt,
    ceil, ceil_div, clip, concat, conv, convert_to_element, copysign, cos, cosh, cumprod, cumsum, deinterleave,
    dequantize, div, eq, erf, erfc, exp, exp2, expand_clone, expand_exp_dif, expm1, fillpad, floor, floor_div, fmod,
    full, gather, gathermask, gcd, ge, get_scatter_mode, greater, gt, hypot, index_add, index_add_, index_add__ub,
    index_add_ub, index_put_, index_select, interleave, isfinite, isnan, le, log, log10, log1p, log2, logical_and,
    logical_not, lrelu, lt, matmul, maximum, minimum, mrgsort, mul, ne, neg, normal, one_hot, ones, pack, pad,
    pass_verify_print, pass_verify_save, permute, pow, prelu, prod, quant_mx, quantize, reciprocal, relu, remainder,
    round, rsqrt, scaled_mm, scatter, scatter_, scatter_update, sign, signbit, sin, sinh, sort32, sqrt, sub, sum,
    tan, tanh, topk, transpose, tril, triu, trunc, uniform, uniform_impl, unpack, var, where, zeros)
from pypto.op import distributed  # noqa: F401 - reached as pypto.distributed too, as in PyPTO
