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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Renders a {@link ConfigDef} as a Markdown table and keeps {@code docs/configuration.md} in step
 * with the declarations: each component owns a section between
 * {@code <!-- config:ID -->} and {@code <!-- /config:ID -->}.
 */
public final class ConfigDocs {

    private ConfigDocs() {}

    public static String markdown(ConfigDef def) {
        StringBuilder out = new StringBuilder();
        out.append("| key | type | default | description |\n");
        out.append("|---|---|---|---|\n");
        for (ConfigKey<?> key : def.keys()) {
            out.append("| `")
                    .append(key.name())
                    .append("` | ")
                    .append(key.type().name())
                    .append(" | ")
                    .append(
                            key.isRequired()
                                    ? "*required*"
                                    : key.defaultValue() == null ? "*none*" : "`" + formatDefault(key) + "`")
                    .append(" | ")
                    .append(key.description().replace("|", "\\|"));
            if (!key.check().requirement().isEmpty()) {
                out.append(" (").append(key.check().requirement()).append(")");
            }
            out.append(" |\n");
        }
        for (ConfigDef.Invariant invariant : def.invariants()) {
            out.append("\nRule: ").append(invariant.problem()).append('\n');
        }
        return out.toString();
    }

    private static <T> String formatDefault(ConfigKey<T> key) {
        return key.type().format(key.defaultValue());
    }

    /**
     * The section {@code id} of {@code doc} as it should read. With {@code update} the file is
     * rewritten; without, a differing section is returned for the caller to fail on.
     *
     * @return null when the doc is already in step (or was just updated), else the expected section
     */
    public static String checkSection(Path doc, String id, ConfigDef def, boolean update) {
        String begin = "<!-- config:" + id + " -->\n";
        String end = "<!-- /config:" + id + " -->";
        String expected = markdown(def);
        try {
            String text = Files.readString(doc, StandardCharsets.UTF_8);
            int from = text.indexOf(begin);
            int to = text.indexOf(end);
            if (from < 0 || to < from) {
                if (!update) {
                    return expected;
                }
                text = text + "\n## " + def.title() + "\n\n" + begin + expected + end + "\n";
            } else {
                String current = text.substring(from + begin.length(), to);
                if (current.equals(expected)) {
                    return null;
                }
                if (!update) {
                    return expected;
                }
                text = text.substring(0, from + begin.length()) + expected + text.substring(to);
            }
            Files.writeString(doc, text, StandardCharsets.UTF_8);
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
