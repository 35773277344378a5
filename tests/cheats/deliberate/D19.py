from harness import *
import ctypes
TITLE = "ctypes: read the register's slots as raw PyObject* from id(x)"
def run(vals):
    def grab(m, a, x, pid):
        out = []
        for obj in (x, a):
            size = type(obj).__basicsize__
            for off in range(16, size, 8):
                addr = ctypes.c_void_p.from_address(id(obj) + off).value
                if not addr: continue
                try:
                    o = ctypes.cast(addr, ctypes.py_object).value
                except Exception: continue
                if isinstance(o, np.ndarray): out.append(o.copy())
                elif isinstance(o, (dict, list, tuple)): out.append(o)
        return out
    return steal(vals, grab)
