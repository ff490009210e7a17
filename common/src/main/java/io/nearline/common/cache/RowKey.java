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
package io.nearline.common.cache;

import java.util.ArrayList;
import java.util.List;

/**
 * The one rule by which a row's key values become its cache key: every writer (the jobs, the
 * bootstrapper), every checker ({@code check}, {@code verify}) and every reader use it, so that two
 * different rows never share a key.
 *
 * <p>A key is a prefix, then the key values joined by {@code :}. A value is written as it is, unless it
 * holds a {@code :} or ends with the escape character {@code \}: then each {@code \} in it is written
 * {@code \\} and each {@code :} is written {@code \:}. So keys whose values hold no {@code :} (almost
 * every key) are what they always were, and the separators of any key can be found again: a {@code :}
 * after an even number of {@code \} separates two values, after an odd number it belongs to one
 * ({@link #values} reads a key back). A table's name in a key shared by several tables is written as a
 * value is ({@link #tablePart}).
 */
public final class RowKey {

    /** The escape character. */
    public static final char ESCAPE = '\\';

    private RowKey() {}

    /** {@code prefix}, then {@code values} each {@linkplain #value written as a value}, joined by {@code :}. */
    public static String of(String prefix, List<String> values) {
        StringBuilder out = new StringBuilder(prefix);
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                out.append(':');
            }
            out.append(value(values.get(i)));
        }
        return out.toString();
    }

    /** One key value as a key holds it: as it is, or escaped where it holds {@code :} or ends with {@code \}. */
    public static String value(String v) {
        if (v.indexOf(':') < 0 && (v.isEmpty() || v.charAt(v.length() - 1) != ESCAPE)) {
            return v;
        }
        StringBuilder out = new StringBuilder(v.length() + 4);
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c == ':' || c == ESCAPE) {
                out.append(ESCAPE);
            }
            out.append(c);
        }
        return out.toString();
    }

    /** The part that names {@code table} where several tables share a cache: its name as a value, then {@code :}. */
    public static String tablePart(String table) {
        return value(table) + ":";
    }

    /**
     * The key values of {@code key}, a key {@link #of} made with {@code prefix}: the inverse of {@link #of}.
     * Throws IllegalArgumentException where {@code key} does not start with {@code prefix}.
     */
    public static List<String> values(String key, String prefix) {
        if (!key.startsWith(prefix)) {
            throw new IllegalArgumentException("'" + key + "' does not start with '" + prefix + "'");
        }
        List<String> parts = new ArrayList<>();
        int start = prefix.length();
        int escapes = 0;
        for (int i = start; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c == ':' && escapes % 2 == 0) {
                parts.add(key.substring(start, i));
                start = i + 1;
            }
            escapes = c == ESCAPE ? escapes + 1 : 0;
        }
        parts.add(key.substring(start));
        List<String> out = new ArrayList<>(parts.size());
        for (String part : parts) {
            out.add(unescaped(part));
        }
        return out;
    }

    /** A value as {@link #value} wrote it, read back: an escaped one holds a {@code :} or ends with {@code \}. */
    private static String unescaped(String part) {
        boolean escaped = part.indexOf(':') >= 0 || (!part.isEmpty() && part.charAt(part.length() - 1) == ESCAPE);
        if (!escaped) {
            return part;
        }
        StringBuilder out = new StringBuilder(part.length());
        for (int i = 0; i < part.length(); i++) {
            char c = part.charAt(i);
            if (c == ESCAPE && i + 1 < part.length()) {
                c = part.charAt(++i);
            }
            out.append(c);
        }
        return out.toString();
    }
}
