"""pypto.tensor: the module of PyPTO's Tensor class and its annotation. As in PyPTO, the package
attribute `pypto.tensor` is the Tensor class itself (`pypto.tensor(shape, dtype)`), while
`from pypto.tensor import TensorAnnotation` reads this module."""
from pypto._errors import not_simulated_class as _not_simulated_class
from pypto._tensor import Tensor, TensorAnnotation  # noqa: F401 - this module's API

ShmemTensor = _not_simulated_class("tensor.ShmemTensor")
LogicalTensor = _not_simulated_class("tensor.LogicalTensor")
