package org.libpto;

/**
 * Whose rules the instructions enforce (the C {@code pto_profile}): HOST is
 * libpto's own; A2A3 and A5 add the instruction pages' implementation checks
 * for those targets, so a program is refused on the CPU where the target
 * would refuse it, with a message naming the profile.
 *
 * <p>Profiles are per thread. {@link #activate()} sets one for the calling
 * thread until the returned scope is closed:
 *
 * <pre>{@code
 * try (Profile.Scope s = Profile.A2A3.activate()) {
 *     Pto.tpartadd(dst, a, b); // refused for UINT8 tiles: "... not supported on A2A3 ..."
 * }
 * }</pre>
 */
public enum Profile {
    // gen-enums:begin (the constants: tools/gen-enums.py)
    /** The v0.1 rules: everything libpto can compute (the default). */
    HOST(pto_profile.PTO_PROFILE_HOST),
    /** HOST rules plus the pages' A2A3 (A3) implementation checks. */
    A2A3(pto_profile.PTO_PROFILE_A2A3),
    /** HOST rules plus the pages' A5 implementation checks. */
    A5(pto_profile.PTO_PROFILE_A5),
    // gen-enums:end
    ;

    private final int code;

    Profile(int code) {
        this.code = code;
    }

    /** The C value. */
    public int code() {
        return code;
    }

    /** The calling thread's profile. */
    public static Profile current() {
        int c = PtoNative.pto_get_profile();
        for (Profile p : values()) {
            if (p.code == c) {
                return p;
            }
        }
        return HOST;
    }

    /**
     * Sets this profile for the calling thread until the returned scope is
     * closed, which restores the thread's previous profile. Close it on the
     * same thread (try-with-resources does).
     */
    public Scope activate() {
        Profile previous = current();
        PtoNative.pto_set_profile(code);
        return new Scope(previous);
    }

    /** An active profile; {@link #close()} restores the previous one. */
    public static final class Scope implements AutoCloseable {
        private final Profile previous;
        private final Thread thread = Thread.currentThread();
        private boolean closed;

        private Scope(Profile previous) {
            this.previous = previous;
        }

        /**
         * Restores the profile the thread had before; closing again does nothing.
         *
         * @throws IllegalStateException on another thread than the one that activated it
         */
        @Override
        public void close() {
            if (Thread.currentThread() != thread) {
                throw new IllegalStateException("Profile.Scope closed on another thread than it was activated on");
            }
            if (!closed) {
                closed = true;
                PtoNative.pto_set_profile(previous.code);
            }
        }
    }

    /**
     * Sets the calling thread's board mode (pto_set_board_mode): under A2A3 and
     * A5 a rule that the NPU implementation checks only in a debug build runs as
     * that implementation does, with one warning per occurrence on stderr,
     * instead of throwing (docs/profiles.md, "Board mode"); HOST ignores it.
     */
    public static void setBoardMode(boolean on) {
        PtoNative.pto_set_board_mode(on ? 1 : 0);
    }

    /** Whether the calling thread is in board mode (false by default). */
    public static boolean boardMode() {
        return PtoNative.pto_board_mode() == 1;
    }
}
