/* The calling thread's settings that change later operations: the cube modes
 * (pto_set_hf32_mode, pto_set_tf32_mode and their getters) and the fixpipe's
 * quantisation configuration (pto_set_quant_scalar, pto_set_quant_vector).
 * libpto keeps each per OS thread, so a Python thread sees only its own; the
 * calls keep the GIL (they copy a few words). pto/__init__.py wraps the
 * getters to give RoundMode members. */
#include "pto_python.h"

/* set_hf32_mode(enable, round) and set_tf32_mode(enable, round): enable a
 * truth value, round an int or RoundMode (libpto judges it). */
static PyObject *set_mode(const char *fname, pto_status (*set)(int, pto_round_mode), PyObject *const *args,
                          Py_ssize_t nargs, PyObject *kwnames) {
    static const char *const names[] = {"enable", "round"};
    PyObject *a[2];
    if (parse_fastcall(fname, names, 2, 2, args, nargs, kwnames, a) < 0) return NULL;
    const int enable = PyObject_IsTrue(a[0]);
    int round = 0;
    if (enable < 0 || as_enum_value(a[1], "round", &round) < 0) return NULL;
    return status_result(set(enable, (pto_round_mode)round), NULL);
}

static PyObject *mod_set_hf32_mode(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    (void)module;
    return set_mode("set_hf32_mode", pto_set_hf32_mode, args, nargs, kwnames);
}

static PyObject *mod_set_tf32_mode(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    (void)module;
    return set_mode("set_tf32_mode", pto_set_tf32_mode, args, nargs, kwnames);
}

/* (enabled, round) as (bool, int). */
static PyObject *mode_pair(int (*get)(pto_round_mode *)) {
    pto_round_mode round = PTO_ROUND_NONE;
    const int on = get(&round);
    return Py_BuildValue("(Ni)", PyBool_FromLong(on), (int)round);
}

static PyObject *mod_hf32_mode(PyObject *module, PyObject *unused) {
    (void)module;
    (void)unused;
    return mode_pair(pto_hf32_mode);
}

static PyObject *mod_tf32_mode(PyObject *module, PyObject *unused) {
    (void)module;
    (void)unused;
    return mode_pair(pto_tf32_mode);
}

/* set_quant_scalar(scale, dtype): scale a float (rounded to float32). */
static PyObject *mod_set_quant_scalar(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                                      PyObject *kwnames) {
    (void)module;
    static const char *const names[] = {"scale", "dtype"};
    PyObject *a[2];
    if (parse_fastcall("set_quant_scalar", names, 2, 2, args, nargs, kwnames, a) < 0) return NULL;
    const double scale = PyFloat_AsDouble(a[0]);
    int dtype = 0;
    if ((scale == -1.0 && PyErr_Occurred()) || as_enum_value(a[1], "dtype", &dtype) < 0) return NULL;
    return status_result(pto_set_quant_scalar((float)scale, (pto_dtype)dtype), NULL);
}

/* set_quant_vector(fp): fp's row 0, copied now. */
static PyObject *mod_set_quant_vector(PyObject *module, PyObject *arg) {
    (void)module;
    pto_tile *fp = NULL;
    if (tile_arg(arg, "set_quant_vector", "fp", &fp) < 0) return NULL;
    return status_result(pto_set_quant_vector(fp), NULL);
}

PyMethodDef thread_settings_methods[] = {
    {"set_hf32_mode", (PyCFunction)(void (*)(void))mod_set_hf32_mode, METH_FASTCALL | METH_KEYWORDS,
     "set_hf32_mode(enable, round)\n--\n\n"
     "SETHF32MODE (pto_set_hf32_mode): the calling OS thread's HF32 cube mode. Use pto.set_hf32_mode."},
    {"hf32_mode", mod_hf32_mode, METH_NOARGS,
     "hf32_mode()\n--\n\nThe calling OS thread's HF32 cube mode as (enabled, round value)."},
    {"set_tf32_mode", (PyCFunction)(void (*)(void))mod_set_tf32_mode, METH_FASTCALL | METH_KEYWORDS,
     "set_tf32_mode(enable, round)\n--\n\n"
     "SETTF32MODE (pto_set_tf32_mode): the calling OS thread's TF32 cube mode. Use pto.set_tf32_mode."},
    {"tf32_mode", mod_tf32_mode, METH_NOARGS,
     "tf32_mode()\n--\n\nThe calling OS thread's TF32 cube mode as (enabled, round value)."},
    {"set_quant_scalar", (PyCFunction)(void (*)(void))mod_set_quant_scalar, METH_FASTCALL | METH_KEYWORDS,
     "set_quant_scalar(scale, dtype)\n--\n\n"
     "SET_QUANT_SCALAR (pto_set_quant_scalar): the calling OS thread's fixpipe configuration becomes\n"
     "one scalar word for every column (scale as a float32; dtype the output it is meant for: INT8,\n"
     "UINT8, INT16, FLOAT16, BFLOAT16, HIFLOAT8 or FLOAT8_E4M3). tmov_fp, textract_fp and\n"
     "tinsert_fp with fp=None on this thread use it. Other threads keep their own."},
    {"set_quant_vector", mod_set_quant_vector, METH_O,
     "set_quant_vector(fp)\n--\n\n"
     "SET_QUANT_VECTOR (pto_set_quant_vector): the calling OS thread's fixpipe configuration becomes\n"
     "a copy of fp's row 0 (a SCALING tile of one row: UINT64, INT64, FLOAT16, BFLOAT16 or FLOAT32),\n"
     "one word per column; later writes to fp are not seen. Other threads keep their own."},
    {NULL, NULL, 0, NULL},
};
