"""The test of src/kernels/ops/tile/vector/halve/halve_impl.py: it puts the folder above the
package's ops on its path, imports the kernel module by its dotted name from there, and reads its
cases from cases.json beside it, by a path relative to the folder it is run from."""
import argparse
import json
import os
import sys

import torch

ROOT = os.path.dirname(os.path.abspath(__file__))
while not os.path.isdir(os.path.join(ROOT, "src")):
    ROOT = os.path.dirname(ROOT)
sys.path.insert(0, os.path.join(ROOT, "src", "kernels", "ops", "tile"))

from vector.halve.halve_impl import halve  # noqa: E402
from halve_golden import halve_golden  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--json", default="cases.json")
    args = parser.parse_args()
    with open(args.json) as f:
        cases = json.load(f)["cases"]
    for case in cases:
        x = torch.randn(case["shape"])
        assert torch.allclose(halve(x), halve_golden(x), rtol=1e-6, atol=1e-6)


def test_on_card(card):
    """Needs a fixture that no conftest.py of this tree makes: reported at this line, not run."""
    x = torch.randn(8, 32, device=card)
    assert torch.allclose(halve(x), halve_golden(x))


if __name__ == "__main__":
    main()
