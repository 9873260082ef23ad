

class <T extends Entity>{}
