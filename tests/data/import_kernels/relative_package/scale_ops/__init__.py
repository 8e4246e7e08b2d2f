"""Scale kernels, a package whose modules import each other relatively."""
