s=0;p=1000003;for(i=1,1000000,s=(s*31+i)%p);print(s)
