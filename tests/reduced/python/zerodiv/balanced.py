



def ratio():
     0 / 0





def e():ratio()
    


(e())
