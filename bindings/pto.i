/*
 * pto.i - the one SWIG interface for libpto's Go and Java bindings.
 *
 * It wraps include/pto_c.h as it is; what follows only tells SWIG how each
 * language should see the C types the header uses:
 *  - tile handles (pto_tile *) are plain integers (Go uintptr, Java long) that
 *    the idiomatic layer of each binding owns and frees exactly once;
 *  - the out-parameter of pto_tile_create (pto_tile **out) is a one-element
 *    holder the wrapper fills in;
 *  - bulk copies take and fill native arrays/slices in one call, without
 *    copying element by element across the boundary;
 *  - the enums are plain integer constants, so the idiomatic layers can name
 *    them in their own style while the values still come from the header.
 *
 * Java only: a failing call throws org.libpto.PtoException from inside the
 * JNI wrapper, so the status and pto_last_error() are read in the same native
 * call on the same thread. Go reads pto_last_error() itself with the OS
 * thread locked (see bindings/go/pto/errors.go).
 *
 * Generated at build time: swig -go -cgo -intgosize 64 ... / swig -java ...
 */
#if defined(SWIGJAVA)
%module PtoNative
#else
%module ptoc
#endif

%{
#include <pto_c.h>
%}

%include <stdint.i>

/* ---------------------------------------------------------------- Go ---- */
#if defined(SWIGGO)

/* Tile handles as uintptr: a C pointer the Go GC never looks at. */
%typemap(gotype) pto_tile *, const pto_tile * "uintptr"
%typemap(in) pto_tile *, const pto_tile * %{ $1 = ($1_ltype)$input; %}
%typemap(out) pto_tile *, const pto_tile * %{ $result = (uintptr_t)$1; %}

/* pto_tile_create's out-parameter: a *uintptr the wrapper fills in. */
%typemap(gotype) pto_tile **out "*uintptr"
%typemap(in) pto_tile **out %{ $1 = (pto_tile **)$input; %}

/* Whole-tile copies in the tile's own encoding: a byte slice, passed as is
 * (the Go layer reinterprets typed slices as bytes without copying). */
%typemap(gotype) (const void *src, size_t nbytes), (void *dst, size_t nbytes) "[]byte"
%typemap(in) (const void *src, size_t nbytes), (void *dst, size_t nbytes)
%{ $1 = $input.array; $2 = (size_t)$input.len; %}

/* Conversions to and from float: a float32 slice. */
%typemap(gotype) (const float *src, size_t count), (float *dst, size_t count) "[]float32"
%typemap(in) (const float *src, size_t count), (float *dst, size_t count)
%{ $1 = (float *)$input.array; $2 = (size_t)$input.len; %}

/* Link against libpto wherever pkg-config finds it (build tree or install). */
%insert(cgo_comment_typedefs) %{
#cgo pkg-config: pto
%}

#endif /* SWIGGO */

/* -------------------------------------------------------------- Java ---- */
#if defined(SWIGJAVA)

%include <enumtypeunsafe.swg>
%javaconst(1);

/* The generated classes are package-private: the public API of org.libpto
 * is the idiomatic layer next to them. */
%pragma(java) moduleclassmodifiers = "final class"
%pragma(java) jniclassclassmodifiers = "final class"
/* The macros would otherwise land in a public constants interface; the
 * version has its function and the size limit is enforced by libpto. */
%ignore PTO_VERSION_MAJOR;
%ignore PTO_VERSION_MINOR;
%ignore PTO_VERSION_PATCH;
%ignore PTO_VERSION_STRING;
%ignore PTO_TILE_MAX_BYTES;
/* The JNI library is loaded before the first native call. */
%pragma(java) jniclasscode = %{
  static {
    NativeLibrary.load();
  }
%}
%typemap(javaclassmodifiers) enum SWIGTYPE "final class"

/* Tile handles as long. */
%typemap(jni) pto_tile *, const pto_tile * "jlong"
%typemap(jtype) pto_tile *, const pto_tile * "long"
%typemap(jstype) pto_tile *, const pto_tile * "long"
%typemap(javain) pto_tile *, const pto_tile * "$javainput"
%typemap(javaout) pto_tile *, const pto_tile * { return $jnicall; }
%typemap(in) pto_tile *, const pto_tile * %{ $1 = ($1_ltype)(intptr_t)$input; %}
%typemap(out) pto_tile *, const pto_tile * %{ $result = (jlong)(intptr_t)$1; %}

/* pto_tile_create's out-parameter: a long[1] the wrapper fills in. */
%typemap(jni) pto_tile **out "jlongArray"
%typemap(jtype) pto_tile **out "long[]"
%typemap(jstype) pto_tile **out "long[]"
%typemap(javain) pto_tile **out "$javainput"
%typemap(in) pto_tile **out (pto_tile *handle = NULL) %{
  if (!$input || (*jenv)->GetArrayLength(jenv, $input) < 1) {
    SWIG_JavaThrowException(jenv, SWIG_JavaNullPointerException, "handle holder must be a long[1]");
    return $null;
  }
  $1 = &handle;
%}
%typemap(argout) pto_tile **out %{
  if (handle$argnum != NULL) {
    jlong value = (jlong)(intptr_t)handle$argnum;
    (*jenv)->SetLongArrayRegion(jenv, $input, 0, 1, &value);
  }
%}

/* Every failing call throws PtoException(status, pto_last_error()) from the
 * wrapper itself, so a call that returns normally returned PTO_OK (0). */
%typemap(jni) pto_status "jint"
%typemap(jtype) pto_status "int"
%typemap(jstype) pto_status "int"
%typemap(javaout) pto_status { return $jnicall; }
%typemap(out) pto_status %{ $result = (jint)$1; %}
/* "ret" runs after the arrays are released (no JNI calls inside a critical
 * region) and before returning to Java. */
%typemap(ret) pto_status %{
  if ($1 != PTO_OK) pto_throw_status(jenv, $1);
%}

%{
static void pto_throw_status(JNIEnv *jenv, pto_status status) {
  jclass cls = (*jenv)->FindClass(jenv, "org/libpto/PtoException");
  if (cls == NULL) return; /* FindClass left a NoClassDefFoundError pending */
  jmethodID ctor = (*jenv)->GetMethodID(jenv, cls, "<init>", "(ILjava/lang/String;)V");
  if (ctor == NULL) return;
  jstring message = (*jenv)->NewStringUTF(jenv, pto_last_error());
  if (message == NULL) return;
  jobject error = (*jenv)->NewObject(jenv, cls, ctor, (jint)status, message);
  if (error != NULL) (*jenv)->Throw(jenv, (jthrowable)error);
}
%}

/* Bulk copies with Java arrays, pinned for the duration of one C call
 * (GetPrimitiveArrayCritical: no element-by-element copy). Input arrays are
 * released without write-back; output arrays are written back. */
%define PTO_JAVA_ARRAY(CTYPE, JTYPE, JNIARRAY)
%typemap(jni) (const CTYPE *src, size_t count), (CTYPE *dst, size_t count) #JNIARRAY
%typemap(jtype) (const CTYPE *src, size_t count), (CTYPE *dst, size_t count) #JTYPE "[]"
%typemap(jstype) (const CTYPE *src, size_t count), (CTYPE *dst, size_t count) #JTYPE "[]"
%typemap(javain) (const CTYPE *src, size_t count), (CTYPE *dst, size_t count) "$javainput"
%typemap(in) (const CTYPE *src, size_t count), (CTYPE *dst, size_t count) %{
  if (!$input) {
    SWIG_JavaThrowException(jenv, SWIG_JavaNullPointerException, "array is null");
    return $null;
  }
  $2 = (size_t)(*jenv)->GetArrayLength(jenv, $input);
  $1 = ($1_ltype)(*jenv)->GetPrimitiveArrayCritical(jenv, $input, NULL);
  if (!$1) return $null; /* OutOfMemoryError pending */
%}
%typemap(freearg) (const CTYPE *src, size_t count)
%{ (*jenv)->ReleasePrimitiveArrayCritical(jenv, $input, (void *)$1, JNI_ABORT); %}
%typemap(freearg) (CTYPE *dst, size_t count)
%{ (*jenv)->ReleasePrimitiveArrayCritical(jenv, $input, (void *)$1, 0); %}
%enddef

PTO_JAVA_ARRAY(int8_t, byte, jbyteArray)
PTO_JAVA_ARRAY(int16_t, short, jshortArray)
PTO_JAVA_ARRAY(int32_t, int, jintArray)
PTO_JAVA_ARRAY(float, float, jfloatArray)

/* Typed entry points for pto_tile_write/pto_tile_read: Java has one array
 * type per element width, and the raw void* form stays unwrapped. The float
 * forms are the header's own pto_tile_write_f32/pto_tile_read_f32. */
%ignore pto_tile_write;
%ignore pto_tile_read;
%ignore pto_tile_data;
%inline %{
static pto_status pto_tile_write_i8(pto_tile *tile, const int8_t *src, size_t count)
{ return pto_tile_write(tile, src, count * sizeof *src); }
static pto_status pto_tile_read_i8(const pto_tile *tile, int8_t *dst, size_t count)
{ return pto_tile_read(tile, dst, count * sizeof *dst); }
static pto_status pto_tile_write_i16(pto_tile *tile, const int16_t *src, size_t count)
{ return pto_tile_write(tile, src, count * sizeof *src); }
static pto_status pto_tile_read_i16(const pto_tile *tile, int16_t *dst, size_t count)
{ return pto_tile_read(tile, dst, count * sizeof *dst); }
static pto_status pto_tile_write_i32(pto_tile *tile, const int32_t *src, size_t count)
{ return pto_tile_write(tile, src, count * sizeof *src); }
static pto_status pto_tile_read_i32(const pto_tile *tile, int32_t *dst, size_t count)
{ return pto_tile_read(tile, dst, count * sizeof *dst); }
%}

#endif /* SWIGJAVA */

/* Both languages: no raw storage pointer (the bulk copies replace it). */
%ignore pto_tile_data;

%include <pto_c.h>
