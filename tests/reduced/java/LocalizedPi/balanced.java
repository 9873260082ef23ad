class LocalizedPi {
    public static void main(String[] a) {
        throw new RuntimeException("Unsupported locale");
    }
}
