import java.util.*;

/** Javadoc comment. */
public class Shapes<T extends Comparable<T>> implements Runnable {
    private final int[] sizes = {1, 2, 3};
    private List<String> names = new ArrayList<>();
    static int count;

    enum Kind { CIRCLE, SQUARE }

    @Override
    public void run() {
        for (int i = 0, j = 10; i < j; i++, j--) {
            count += sizes[i % 3] * 2 - 1;
        }
        for (String n : names) System.out.println(n);
        try {
            Object o = names.isEmpty() ? null : names.get(0);
            if (o instanceof String s && !s.isEmpty()) throw new IllegalStateException("x" + s);
        } catch (IllegalStateException | NullPointerException e) {
            e.printStackTrace();
        } finally {
            count = 0;
        }
        Runnable r = () -> { count++; };
        switch (count) { case 1: break; default: count = -1; }
        while (count > 0) count--;
        do { count++; } while (count < 3);
        int[][] grid = new int[3][4];
        String s = String.valueOf(grid.length).concat("a").toUpperCase();
    }

    <U> U pick(U a, U b, boolean first) { return first ? a : b; }
}
