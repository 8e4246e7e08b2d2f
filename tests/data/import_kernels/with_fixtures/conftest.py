"""The device fixture of a test folder, as kernel authors write it: set the device, hand its
name to the test, synchronise when the test is done."""
import os

import pytest
import torch


@pytest.fixture(scope="module")
def device():
    device_id = int(os.environ.get("TILE_FWK_DEVICE_ID", 0))
    torch.npu.set_device(device_id)
    yield f"npu:{device_id}"
    torch.npu.synchronize()
