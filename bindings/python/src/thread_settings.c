/* The calling thread's settings that change later operations: the cube modes
 * (pto_set_hf32_mode, pto_set_tf32_mode and their getters); the fixpipe's
 * quantisation configuration (pto_set_quant_scalar, pto_set_quant_vector)
 * and the img2col registers are src/settings.def's rows, generated into
 * operations.c's table. libpto keeps each per OS thread, so a Python thread
 * sees only its own; the calls keep the GIL (they copy a few words).
 * pto/__init__.py wraps the getters to give RoundMode members. */
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
    {NULL, NULL, 0, NULL},
};
