public class LocalizedPi {
    public static void main(String[] args) {
        double pi = 4.0 * (1 - 1.0 / 3 + 1.0 / 5 - 1.0 / 7);
        System.out.println(String.format("%.4f", pi).trim().length());
        if (pi > 3) { return; } else if (pi < 2) { pi = 0; } else { pi++; }
    }
}
