/*
 * Copyright 2026 The Nearline Authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.nearline.common.config;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * How a configuration value is written as text: its name in the docs, what a valid value looks like
 * (quoted in error messages), and the parser. Parsers throw {@link IllegalArgumentException}.
 */
public record ValueType<T>(String name, String expected, Function<String, T> parser, Function<T, String> formatter) {

    public T parse(String text) {
        return parser.apply(text.trim());
    }

    public String format(T value) {
        return value == null ? "" : formatter.apply(value);
    }

    public static final ValueType<String> STRING = new ValueType<>("string", "any text", s -> s, s -> s);

    public static final ValueType<Integer> INT =
            new ValueType<>("int", "a whole number such as 8", Integer::valueOf, String::valueOf);

    public static final ValueType<Long> LONG =
            new ValueType<>("long", "a whole number such as 1000", Long::valueOf, String::valueOf);

    public static final ValueType<Double> DOUBLE =
            new ValueType<>("double", "a decimal number such as 0.5", Double::valueOf, String::valueOf);

    public static final ValueType<Boolean> BOOLEAN =
            new ValueType<>("boolean", "true or false", ValueType::parseBoolean, String::valueOf);

    public static final ValueType<Duration> DURATION = new ValueType<>(
            "duration",
            "a duration such as 250ms, 30s, 15m, 2h or 7d",
            ValueType::parseDuration,
            ValueType::formatDuration);

    /** A password or key by reference; a secret written inline is refused. */
    public static final ValueType<Secret> SECRET = new ValueType<>(
            "secret",
            "a reference to the secret: env:VARIABLE or file:/path/to/file, never the secret itself",
            Secret::parse,
            Secret::reference);

    public static <E extends Enum<E>> ValueType<E> enumOf(Class<E> type) {
        String names = Arrays.stream(type.getEnumConstants())
                .map(e -> e.name().toLowerCase(Locale.ROOT))
                .collect(Collectors.joining(", "));
        return new ValueType<>(
                "enum",
                "one of: " + names,
                s -> Enum.valueOf(type, s.toUpperCase(Locale.ROOT).replace('-', '_')),
                e -> e.name().toLowerCase(Locale.ROOT).replace('_', '-'));
    }

    private static boolean parseBoolean(String s) {
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("not a boolean");
        };
    }

    private static final Pattern SIMPLE_DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)");

    static Duration parseDuration(String s) {
        Matcher m = SIMPLE_DURATION.matcher(s.toLowerCase(Locale.ROOT));
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            return switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            };
        }
        return Duration.parse(s); // ISO-8601 (PT30S) as a fallback
    }

    static String formatDuration(Duration d) {
        long ms = d.toMillis();
        if (ms != 0 && ms % 86_400_000L == 0) {
            return ms / 86_400_000L + "d";
        }
        if (ms != 0 && ms % 3_600_000L == 0) {
            return ms / 3_600_000L + "h";
        }
        if (ms != 0 && ms % 60_000L == 0) {
            return ms / 60_000L + "m";
        }
        if (ms % 1000L == 0) {
            return ms / 1000L + "s";
        }
        return ms + "ms";
    }
}
