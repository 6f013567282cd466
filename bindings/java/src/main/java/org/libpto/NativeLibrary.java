package org.libpto;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Loads the JNI library once, before the first native call.
 *
 * <p>By default the libraries bundled in the jar for this platform
 * ({@code org/libpto/native/linux-x86_64/}: {@code libptojni.so}, the
 * {@code libpto.so.0} it links and libpto's dependencies) are extracted to a
 * fresh temporary directory, loaded in dependency order and deleted again (a
 * loaded library stays mapped). System properties change that:
 * <ul>
 *   <li>{@code org.libpto.jni.library=/path/libptojni.so}: load this file
 *       instead (it finds libpto the usual way, e.g. through
 *       {@code LD_LIBRARY_PATH}); {@code pto.jni.library} is an older name;</li>
 *   <li>{@code org.libpto.jni.system=true}: {@code System.loadLibrary("ptojni")}
 *       from {@code java.library.path}, for a libptojni installed by meson;</li>
 *   <li>{@code org.libpto.jni.tmpdir=DIR}: extract under DIR instead of
 *       {@code java.io.tmpdir} (e.g. when /tmp is mounted noexec).</li>
 * </ul>
 */
final class NativeLibrary {
    private static final String RESOURCE_ROOT = "/org/libpto/native/";
    private static boolean loaded;

    private NativeLibrary() {}

    static synchronized void load() {
        if (loaded) {
            return;
        }
        String path = System.getProperty("org.libpto.jni.library", System.getProperty("pto.jni.library"));
        if (path != null && !path.isEmpty()) {
            System.load(path);
        } else if (Boolean.getBoolean("org.libpto.jni.system")) {
            System.loadLibrary("ptojni");
        } else {
            loadBundled();
        }
        loaded = true;
    }

    /** linux-x86_64, linux-aarch64, ...: the directory of this platform's libraries. */
    static String platform() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (arch.equals("amd64") || arch.equals("x86_64")) {
            arch = "x86_64";
        } else if (arch.equals("arm64")) {
            arch = "aarch64";
        }
        return (os.startsWith("linux") ? "linux" : os.replace(' ', '_')) + "-" + arch;
    }

    private static void loadBundled() {
        String dir = RESOURCE_ROOT + platform() + "/";
        List<String> order = loadOrder(dir);
        Path tmp = null;
        try {
            String base = System.getProperty("org.libpto.jni.tmpdir", System.getProperty("java.io.tmpdir"));
            tmp = Files.createTempDirectory(Paths.get(base), "libpto-");
            for (String name : order) {
                Path file = tmp.resolve(name);
                try (InputStream in = NativeLibrary.class.getResourceAsStream(dir + name)) {
                    if (in == null) {
                        throw new UnsatisfiedLinkError("libpto: " + dir + name + " is missing from the jar");
                    }
                    Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
                }
            }
            // Dependencies first, so each library finds the ones it links
            // already loaded (matched by soname).
            for (String name : order) {
                System.load(tmp.resolve(name).toAbsolutePath().toString());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("libpto: cannot extract the native libraries", e);
        } finally {
            deleteQuietly(tmp, order);
        }
    }

    private static List<String> loadOrder(String dir) {
        try (InputStream in = NativeLibrary.class.getResourceAsStream(dir + "load-order.txt")) {
            if (in == null) {
                throw new UnsatisfiedLinkError("libpto: this jar has no native library for " + platform()
                        + "; build the binding on this platform, or set -Dorg.libpto.jni.library=/path/libptojni.so");
            }
            List<String> order = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank()) {
                    order.add(line.trim());
                }
            }
            return order;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteQuietly(Path tmp, List<String> names) {
        if (tmp == null) {
            return;
        }
        try {
            for (String name : names) {
                Files.deleteIfExists(tmp.resolve(name));
            }
            Files.deleteIfExists(tmp);
        } catch (IOException e) {
            tmp.toFile().deleteOnExit();
        }
    }
}
