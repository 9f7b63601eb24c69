step(s,i)=(s*31+i)%1000003;
s=0;for(i=1,1000000,s=step(s,i));print(s)
