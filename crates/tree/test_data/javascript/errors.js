function ( { var = ; }
