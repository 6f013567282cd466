package org.libpto;

/**
 * Loads the JNI library (libptojni.so, which links libpto) once, before the
 * first native call. The system property {@code pto.jni.library} may name the
 * library file; otherwise it is looked up on {@code java.library.path}
 * (which on Linux includes {@code LD_LIBRARY_PATH}).
 */
final class NativeLibrary {
    private static boolean loaded;

    private NativeLibrary() {}

    static synchronized void load() {
        if (loaded) {
            return;
        }
        String path = System.getProperty("pto.jni.library");
        if (path != null && !path.isEmpty()) {
            System.load(path);
        } else {
            System.loadLibrary("ptojni");
        }
        loaded = true;
    }
}
