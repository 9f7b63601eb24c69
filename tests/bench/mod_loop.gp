s=Mod(0,1000003);for(i=1,1000000,s=s*31+i);print(s)
