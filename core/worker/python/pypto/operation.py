"""pypto.operation: PyPTO's `op_wrapper`, which converts its Tensor wrappers to the compiled core's
tensors around an operation written against pypto_impl. The simulator has one kind of tensor, so
it passes the arguments through; a pypto_impl operation inside still says it is not simulated."""
import functools


def op_wrapper(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        return func(*args, **kwargs)

    return wrapper
