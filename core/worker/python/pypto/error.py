"""pypto.error: PyPTO's exception classes, with its names and constructor arguments, so host code
and tests that raise or catch them load. The simulator itself reports its own errors
(SimulatorError) and raises none of these; PyPTO's numeric error codes come from its compiled core,
so an error here carries the code given, or PyPTO's "unknown" marker when there is none."""
import functools

_UNKNOWN = 0xF0FFFF


class PyptoError(Exception):
    def __init__(self, err_code, msg):
        text = str(msg)
        if "ErrCode" not in text:
            text = f"ErrCode: {err_code:X}, " + (
                f"{type(msg).__name__}: {text}" if isinstance(msg, Exception) else text
            )
        super().__init__(text)
        self.node = None


class PyptoGeneralError(PyptoError):
    def __init__(self, msg):
        super().__init__(_UNKNOWN, msg)


class ParserError(PyptoError):
    def __init__(self, node, msg):
        super().__init__(_UNKNOWN, msg)
        self.node = node


class RenderedParserError(ParserError):
    pass


class FeError(PyptoGeneralError):
    pass


class PyptoRtError(PyptoGeneralError):
    pass


class PassError(PyptoGeneralError):
    pass


class VerifyError(PyptoGeneralError):
    pass


def _catch_and_wrap_error(operation_name):
    """Wraps a function's failure other than a PyptoError into a PyptoGeneralError that names the
    operation and the function, as PyPTO's does."""

    def decorator(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            try:
                return func(*args, **kwargs)
            except PyptoError:
                raise
            except Exception as exc:  # noqa: BLE001 - every other failure is wrapped, as in PyPTO
                name = getattr(args[0], "__name__", func.__name__) if args else func.__name__
                raise PyptoGeneralError(exc.__class__(f"Failed to {operation_name} '{name}'.\n{exc}")).with_traceback(
                    exc.__traceback__
                ) from None

        return wrapper

    return decorator
