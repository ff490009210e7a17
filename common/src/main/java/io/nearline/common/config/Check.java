package io.nearline.common.config;

import java.time.Duration;
import java.util.function.Predicate;

/** A validation rule on one value: what it requires (for docs and errors) and the test itself. */
public record Check<T>(String requirement, Predicate<T> test) {

    public static <T> Check<T> none() {
        return new Check<>("", v -> true);
    }

    public static Check<Duration> positiveDuration() {
        return new Check<>("must be > 0", d -> !d.isZero() && !d.isNegative());
    }

    public static Check<Integer> atLeast(int min) {
        return new Check<>("must be >= " + min, v -> v >= min);
    }

    public static Check<Integer> between(int min, int max) {
        return new Check<>("must be between " + min + " and " + max, v -> v >= min && v <= max);
    }

    public static Check<Double> fraction() {
        return new Check<>("must be between 0 and 1", v -> v >= 0 && v <= 1);
    }

    public static Check<String> notBlank() {
        return new Check<>("must not be empty", v -> !v.isBlank());
    }
}
