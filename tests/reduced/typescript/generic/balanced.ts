class<T extends Entity> {}
