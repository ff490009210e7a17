package io.nearline.localcluster;

import java.io.PrintStream;
import java.util.concurrent.atomic.LongAdder;

/**
 * A progress line for long work, rewritten once a second on stderr while the work runs; silent
 * for work that ends within the first second.
 */
public final class Progress implements AutoCloseable {

    private final LongAdder done = new LongAdder();
    private final Thread ticker;
    private final PrintStream out;
    private volatile boolean printed;

    public Progress(String label, long total, PrintStream out) {
        this.out = out;
        long started = System.nanoTime();
        this.ticker = new Thread(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    Thread.sleep(1000);
                    long n = done.sum();
                    double seconds = (System.nanoTime() - started) / 1e9;
                    out.printf("\r  %s: %,d / %,d (%d%%), %,.0f/s   ", label, n, total,
                            total == 0 ? 100 : n * 100 / total, n / seconds);
                    printed = true;
                }
            } catch (InterruptedException e) {
                // done
            }
        }, "progress");
        ticker.setDaemon(true);
        ticker.start();
    }

    public void step() {
        done.increment();
    }

    @Override
    public void close() {
        ticker.interrupt();
        try {
            ticker.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (printed) {
            out.println();
        }
    }
}
