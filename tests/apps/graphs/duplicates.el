# each edge both ways, 0 1 twice: stored once a row
0 1
1 0
1 2
2 1
0 1
