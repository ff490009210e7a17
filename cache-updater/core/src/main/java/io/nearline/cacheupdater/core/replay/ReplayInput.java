package io.nearline.cacheupdater.core.replay;

import io.nearline.cacheupdater.core.events.ChangeEventText;
import io.nearline.cacheupdater.core.events.Decoded;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Change events read from JSON-lines files, in file order, each with where it came from. Blank lines are skipped. */
public final class ReplayInput {

    /** One non-blank line: its origin, its text, and what it parsed to. */
    public record Line(String file, long number, String text, Decoded decoded) {}

    private ReplayInput() {}

    public static List<Line> read(List<Path> files) {
        List<Line> out = new ArrayList<>();
        for (Path file : files) {
            try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                String text;
                long number = 0;
                while ((text = reader.readLine()) != null) {
                    number++;
                    if (!text.isBlank()) {
                        out.add(new Line(file.getFileName().toString(), number, text, ChangeEventText.parse(text)));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read events file " + file + ": " + e.getMessage(), e);
            }
        }
        return out;
    }
}
