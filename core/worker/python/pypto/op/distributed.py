"""pypto.distributed (pypto.op.distributed): shared-memory communication between NPUs. The
simulator runs one device, so each of these is an error at the kernel line that calls it."""
from pypto._errors import not_simulated as _not_simulated

create_shmem_tensor = _not_simulated("distributed.create_shmem_tensor", "group_name, n_pes, dtype, shape", "data")
create_shmem_signal = _not_simulated("distributed.create_shmem_signal", "group_name, n_pes", "data")
shmem_view = _not_simulated("distributed.shmem_view", "src, shape, offsets, *, valid_shape=None", "data")
shmem_put = _not_simulated(
    "distributed.shmem_put", "src, offsets, dst, dst_pe, *, put_op=AtomicType.SET, pred=None", "data"
)
shmem_get = _not_simulated(
    "distributed.shmem_get", "src, src_pe, shape=None, offsets=None, *, valid_shape=None, " "pred=None", "data"
)
shmem_signal = _not_simulated(
    "distributed.shmem_signal",
    "src, src_pe, signal, shape=None, offsets=None, *, " "target_pe, sig_op=AtomicType.SET, pred=None",
    "data",
)
shmem_wait_until = _not_simulated(
    "distributed.shmem_wait_until",
    "src, src_pe, cmp_value=0, shape=None, " "offsets=None, *, cmp=OpType.EQ, " "clear_signal=False, pred=None",
    "data",
)
shmem_barrier_all = _not_simulated("distributed.shmem_barrier_all", "src, pred=None", "data")
shmem_clear_data = _not_simulated("distributed.shmem_clear_data", "src, shape=None, offsets=None, *, pred=None", "data")
shmem_clear_signal = _not_simulated("distributed.shmem_clear_signal", "src, *, pred=None", "data")
my_symbolic_pe = _not_simulated("distributed.my_symbolic_pe", "group_name", "data")
